import { createHash } from 'node:crypto';
import { centreDayOf } from '@crm/contracts';

/**
 * A simplified invoice (factura simplificada) or a rectifying one, immutable once stored, chained:
 * each record stores the SHA-256 of the previous one (docs/product/payments.md#invoices).
 */
export interface Invoice {
  number: string;
  series: InvoiceSeries;
  year: number;
  /** Position in its series and year: 1, 2, 3… without gaps. */
  seq: number;
  /** Position in the one chain of every record this system issued: 1, 2, 3… */
  chainSeq: number;
  kind: 'invoice' | 'rectifying';
  /** `payment:<id>` or `refund:<id>`: one invoice per payment and one per refund, never two. */
  sourceKey: string;
  paymentId: string;
  appointmentId: string;
  patientId: string;
  patientName: string;
  issuer: { legalName: string; taxId: string; address: string };
  issuedAt: Date;
  description: string;
  /** Negative on a rectifying invoice. */
  totalCents: number;
  baseCents: number;
  taxCents: number;
  vatRatePercent: number;
  exemptionText?: string;
  currency: string;
  method: string;
  rectifies?: string;
  previousHash: string;
  hash: string;
  /** The address the QR code encodes (the tax agency's check of the invoice). */
  qrUrl: string;
}

export type InvoiceSeries = 'F' | 'R';
export const seriesOf = (kind: Invoice['kind']): InvoiceSeries => (kind === 'invoice' ? 'F' : 'R');

/** `F2026-000001`. */
export const invoiceNumber = (series: InvoiceSeries, year: number, seq: number): string =>
  `${series}${year}-${String(seq).padStart(6, '0')}`;

/** `YYYY-MM-DD` of an instant at the centre: the issue date the invoice's PDF prints. */
export const centreDay = centreDayOf;

/** The first record's `previousHash`. */
export const GENESIS_HASH = '';

const euros = (cents: number): string => (cents / 100).toFixed(2);
const ddmmyyyy = (date: Date): string => {
  const [y, m, d] = date.toISOString().slice(0, 10).split('-');
  return `${d}-${m}-${y}`;
};

/**
 * The fingerprint of a record, built like the VERI*FACTU "huella" of an issue record (Orden
 * HAC/1177/2024): `name=value` pairs joined by `&`, the previous record's fingerprint included,
 * SHA-256 in upper-case hex. Changing any of these fields, or the link, changes it.
 */
export function fingerprint(invoice: Omit<Invoice, 'hash'>): string {
  const text = [
    `IDEmisorFactura=${invoice.issuer.taxId}`,
    `NumSerieFactura=${invoice.number}`,
    `FechaExpedicionFactura=${ddmmyyyy(invoice.issuedAt)}`,
    `TipoFactura=${invoice.kind === 'invoice' ? 'F2' : 'R5'}`,
    `CuotaTotal=${euros(invoice.taxCents)}`,
    `ImporteTotal=${euros(invoice.totalCents)}`,
    `Huella=${invoice.previousHash}`,
    `FechaHoraHusoGenRegistro=${invoice.issuedAt.toISOString()}`,
    // Not part of the agency's fingerprint, but of ours: the record's other facts.
    `Destinatario=${invoice.patientId}`,
    `Pago=${invoice.paymentId}`,
    `Orden=${invoice.chainSeq}`,
  ].join('&');
  return createHash('sha256').update(text, 'utf8').digest('hex').toUpperCase();
}

/** The tax agency's QR check address (RD 1007/2023): NIF, number, date and total. */
export function qrUrlOf(invoice: Pick<Invoice, 'issuer' | 'number' | 'issuedAt' | 'totalCents'>): string {
  const query = new URLSearchParams({
    nif: invoice.issuer.taxId,
    numserie: invoice.number,
    fecha: ddmmyyyy(invoice.issuedAt),
    importe: euros(invoice.totalCents),
  });
  return `https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR?${query.toString()}`;
}

/** Splits a total (taxes included) into base and VAT at the given rate, in cents. */
export function taxSplit(
  totalCents: number,
  vatRatePercent: number,
): { baseCents: number; taxCents: number } {
  if (vatRatePercent <= 0) return { baseCents: totalCents, taxCents: 0 };
  const baseCents = Math.round((totalCents * 100) / (100 + vatRatePercent));
  return { baseCents, taxCents: totalCents - baseCents };
}

export interface ChainCheck {
  ok: boolean;
  checked: number;
  firstBroken?: { number: string; reason: 'hash' | 'link' | 'sequence' };
}

/** Walks the records in chain order: each stored hash must be its fingerprint and the next one's link. */
export function verifyChain(invoices: Iterable<Invoice>): ChainCheck {
  let previous = GENESIS_HASH;
  let expectedSeq = 1;
  let checked = 0;
  const lastOfSeries = new Map<string, number>();
  for (const invoice of invoices) {
    checked += 1;
    const series = `${invoice.series}${invoice.year}`;
    const seriesGap = invoice.seq !== (lastOfSeries.get(series) ?? 0) + 1;
    lastOfSeries.set(series, invoice.seq);
    if (invoice.chainSeq !== expectedSeq || seriesGap)
      return { ok: false, checked, firstBroken: { number: invoice.number, reason: 'sequence' } };
    if (invoice.previousHash !== previous)
      return { ok: false, checked, firstBroken: { number: invoice.number, reason: 'link' } };
    const { hash, ...rest } = invoice;
    if (fingerprint(rest) !== hash)
      return { ok: false, checked, firstBroken: { number: invoice.number, reason: 'hash' } };
    previous = hash;
    expectedSeq += 1;
  }
  return { ok: true, checked };
}
