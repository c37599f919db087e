import type { CentreTerms } from './centre-terms';
import { notConfiguredSubmitter, type InvoiceSubmission, type InvoiceSubmitter } from './invoice-submitter';
import {
  centreDay,
  fingerprint,
  GENESIS_HASH,
  invoiceNumber,
  qrUrlOf,
  seriesOf,
  taxSplit,
  verifyChain,
  type ChainCheck,
  type Invoice,
} from './invoice';
import type { KnownAppointment, Payment } from './payment';

export interface InvoiceStore {
  bySourceKey(sourceKey: string): Promise<Invoice | undefined>;
  byNumber(number: string): Promise<Invoice | undefined>;
  forAppointment(appointmentId: string): Promise<Invoice[]>;
  /** The last record of the chain, and the last number of a series and year. */
  lastOfChain(): Promise<Invoice | undefined>;
  lastSeq(series: string, year: number): Promise<number>;
  /**
   * Inserts the record (with its `invoice.issued` event, which carries what the patient's e-mail
   * needs: `recipient`, and the PDF). `taken` when another record already holds its chain position or
   * number (another replica won the race), `duplicate` when its source already has an invoice.
   */
  insert(
    invoice: Invoice,
    recipient?: InvoiceRecipient,
    submission?: InvoiceSubmission,
  ): Promise<'inserted' | 'taken' | 'duplicate'>;
  inChainOrder(): Promise<Invoice[]>;
  /** Invoices issued in [start, end), by series, year and number. */
  issuedBetween(start: Date, end: Date): Promise<Invoice[]>;
}

/** Who the invoice's e-mail goes to, and about which appointment (the read model's copy). */
export interface InvoiceRecipient {
  name: string;
  email: string;
  appointmentDate: Date;
}

const recipientOf = (appointment: KnownAppointment | undefined): InvoiceRecipient | undefined =>
  appointment?.patientEmail
    ? { name: appointment.patientName, email: appointment.patientEmail, appointmentDate: appointment.date }
    : undefined;

const MAX_RACES = 200;
const DAY_MS = 86_400_000;

/**
 * Issues invoices: one per payment, one rectifying per refund; consecutive numbers per series
 * (`F` invoices, `R` rectifying) and year; one chain over every record.
 *
 * Numbering without gaps and without a counter: the number and the chain position are "last + 1",
 * and the record is inserted under unique indexes on both. Losing a race (another replica, same
 * position) is a duplicate key, and the writer reads the new last and tries again. A number is
 * therefore spent only by the insert that stores its invoice: a crash at any point leaves no gap
 * (a counter bumped with `$inc` before the insert would leave one), and the previous record's hash
 * is always known when a record is written. Within one process the issues are queued, so replicas
 * are the only source of races.
 */
export class InvoiceService {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: InvoiceStore,
    private readonly now: () => Date = () => new Date(),
    /** The tax agency's port (VERI*FACTU): the state each new record starts in. */
    private readonly submitter: InvoiceSubmitter = notConfiguredSubmitter,
  ) {}

  /** The invoice of a succeeded payment (the existing one if it was already issued). */
  forPayment(
    payment: Payment,
    appointment: KnownAppointment | undefined,
    terms: CentreTerms,
  ): Promise<Invoice> {
    return this.issue({
      kind: 'invoice',
      sourceKey: `payment:${payment.id}`,
      payment,
      appointment,
      terms,
      totalCents: payment.amountCents,
      description: 'Reconocimiento médico',
    });
  }

  /** The rectifying invoice of a refund: negative amounts, pointing at the invoice it corrects. */
  forRefund(
    payment: Payment,
    appointment: KnownAppointment | undefined,
    terms: CentreTerms,
  ): Promise<Invoice> {
    return this.issue({
      kind: 'rectifying',
      sourceKey: `refund:${payment.id}`,
      payment,
      appointment,
      terms,
      totalCents: -(payment.refund?.amountCents ?? payment.amountCents),
      description: 'Devolución del reconocimiento médico',
      ...(payment.invoiceNumber ? { rectifies: payment.invoiceNumber } : {}),
    });
  }

  forAppointment(appointmentId: string): Promise<Invoice[]> {
    return this.store.forAppointment(appointmentId);
  }

  byNumber(number: string): Promise<Invoice | undefined> {
    return this.store.byNumber(number);
  }

  /**
   * The invoices issued on these days at the centre (`YYYY-MM-DD`, both included), F series then R,
   * each in number order. Read a day wider on both sides in UTC, then kept by their day at the centre
   * (the day printed on the invoice), so no time-zone arithmetic decides the edges.
   */
  async issuedOn(from: string, to: string): Promise<Invoice[]> {
    const start = new Date(Date.parse(`${from}T00:00:00Z`) - DAY_MS);
    const end = new Date(Date.parse(`${to}T00:00:00Z`) + 2 * DAY_MS);
    const invoices = await this.store.issuedBetween(start, end);
    return invoices.filter((invoice) => {
      const day = centreDay(invoice.issuedAt);
      return day >= from && day <= to;
    });
  }

  verify(): Promise<ChainCheck> {
    return this.store.inChainOrder().then(verifyChain);
  }

  private issue(input: IssueInput): Promise<Invoice> {
    const run = this.queue.then(() => this.issueNow(input));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async issueNow(input: IssueInput): Promise<Invoice> {
    for (let race = 0; race < MAX_RACES; race++) {
      const existing = await this.store.bySourceKey(input.sourceKey);
      if (existing) return existing;
      const issuedAt = this.now();
      const series = seriesOf(input.kind);
      const year = issuedAt.getUTCFullYear();
      const [last, lastSeq] = await Promise.all([this.store.lastOfChain(), this.store.lastSeq(series, year)]);
      const seq = lastSeq + 1;
      const number = invoiceNumber(series, year, seq);
      const { baseCents, taxCents } = taxSplit(input.totalCents, input.terms.vatRatePercent);
      const issuer = {
        legalName: input.terms.issuer.legalName,
        taxId: input.terms.issuer.taxId,
        address: input.terms.issuer.address,
      };
      const draft: Omit<Invoice, 'hash'> = {
        number,
        series,
        year,
        seq,
        chainSeq: (last?.chainSeq ?? 0) + 1,
        kind: input.kind,
        sourceKey: input.sourceKey,
        paymentId: input.payment.id,
        appointmentId: input.payment.appointmentId,
        patientId: input.payment.patientId,
        patientName: input.appointment?.patientName ?? '',
        issuer,
        issuedAt,
        description: input.description,
        totalCents: input.totalCents,
        baseCents,
        taxCents,
        vatRatePercent: input.terms.vatRatePercent,
        ...(input.terms.vatRatePercent === 0 ? { exemptionText: input.terms.exemptionText } : {}),
        currency: input.payment.currency,
        method: input.payment.method,
        ...(input.rectifies ? { rectifies: input.rectifies } : {}),
        previousHash: last?.hash ?? GENESIS_HASH,
        qrUrl: qrUrlOf({ issuer, number, issuedAt, totalCents: input.totalCents }),
      };
      const invoice: Invoice = { ...draft, hash: fingerprint(draft) };
      const outcome = await this.store.insert(
        invoice,
        recipientOf(input.appointment),
        this.submitter.initial(),
      );
      if (outcome === 'inserted') return invoice;
      // `duplicate`: another replica issued it meanwhile (read at the top); `taken`: try the next number.
    }
    throw new Error('invoice not issued: too many concurrent issuers');
  }
}

interface IssueInput {
  kind: Invoice['kind'];
  sourceKey: string;
  payment: Payment;
  appointment: KnownAppointment | undefined;
  terms: CentreTerms;
  totalCents: number;
  description: string;
  rectifies?: string;
}
