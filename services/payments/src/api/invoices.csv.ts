import { PAYMENT_METHOD_WORDS, type PaymentMethod } from '@crm/contracts';
import { csvLine } from '@crm/server-kit';
import { centreDay, type Invoice } from '../domain/invoice';

/**
 * The period's invoices as an accountant's spreadsheet expects them (Excel or LibreOffice in a
 * Spanish locale, through server-kit's CSV: `;` between cells, UTF-8 with a byte-order mark):
 * - amounts in euros with a decimal comma and no thousands separator ("1234,50", "-19,00"): what a
 *   Spanish spreadsheet reads as a number, so columns add up; a decimal point would be read as a
 *   thousands separator (19.00 → 1900) and a grouped "1.234,50" is text in some importers;
 * - the issue date as DD/MM/AAAA, the day at the centre (the one the invoice prints), which a Spanish
 *   spreadsheet reads as a date;
 * - kind and method in Spanish words, the rectified invoice's number beside a rectifying one.
 */
export const INVOICE_CSV_HEADER = csvLine([
  'numero',
  'serie',
  'fecha_expedicion',
  'tipo',
  'rectifica_a',
  'id_cita',
  'cliente',
  'metodo_pago',
  'base_imponible',
  'tipo_iva',
  'cuota_iva',
  'total',
  'moneda',
]);

/** 1900 → "19,00", -1900 → "-19,00", 123450 → "1234,50". */
export const eurosCell = (cents: number): string => (cents / 100).toFixed(2).replace('.', ',');

/** 21 → "21", 10.5 → "10,5". */
const rateCell = (percent: number): string => String(percent).replace('.', ',');

/** "2026-06-01" → "01/06/2026". */
const dayCell = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

export function invoiceCsvLine(invoice: Invoice): string {
  return csvLine([
    invoice.number,
    invoice.series,
    dayCell(centreDay(invoice.issuedAt)),
    invoice.kind === 'invoice' ? 'ordinaria' : 'rectificativa',
    invoice.rectifies,
    invoice.appointmentId,
    invoice.patientName,
    PAYMENT_METHOD_WORDS[invoice.method as PaymentMethod] ?? invoice.method,
    eurosCell(invoice.baseCents),
    rateCell(invoice.vatRatePercent),
    eurosCell(invoice.taxCents),
    eurosCell(invoice.totalCents),
    invoice.currency,
  ]);
}
