import { withOutbox } from '@crm/event-bus';
import { invoiceIssued } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, isDuplicateKey, violatedField } from '@crm/server-kit';
import type { Invoice } from '../domain/invoice';
import type { Payment } from '../domain/payment';
import type { InvoiceSubmission } from '../domain/invoice-submitter';
import type { InvoiceRecipient, InvoiceStore } from '../domain/invoices.service';
import type { PaymentsModels } from './payments.models';

interface InvoiceDocument {
  _id: string;
  record: Invoice & { issuedAt: Date | string };
}

const toInvoice = (doc: InvoiceDocument): Invoice => ({
  ...doc.record,
  issuedAt: new Date(doc.record.issuedAt),
});

/**
 * Invoice records, insert-only: `_id` is the number; unique indexes on the chain position, on
 * series + year + number and on the source keep numbers and chain free of duplicates.
 */
export class MongoInvoiceStore implements InvoiceStore {
  constructor(
    private readonly models: PaymentsModels,
    private readonly outboxWritten: () => void,
    /** The PDF the `invoice.issued` event carries to the patient's e-mail (none: not mailed). */
    private readonly renderPdf?: (invoice: Invoice) => Promise<Buffer>,
  ) {}

  private async one(filter: Record<string, unknown>, sort?: Record<string, 1 | -1>) {
    const query = this.models.Invoice.findOne(filter);
    if (sort) query.sort(sort);
    const doc = await query.lean<InvoiceDocument>();
    return doc ? toInvoice(doc) : undefined;
  }

  bySourceKey(sourceKey: string) {
    return this.one({ sourceKey });
  }
  byNumber(number: string) {
    return this.one({ _id: number });
  }
  lastOfChain() {
    return this.one({}, { chainSeq: -1 });
  }
  async lastSeq(series: string, year: number) {
    return (await this.one({ series, year }, { seq: -1 }))?.seq ?? 0;
  }

  async forAppointment(appointmentId: string) {
    const docs = await this.models.Invoice.find({ appointmentId })
      .sort({ chainSeq: 1 })
      .lean<InvoiceDocument[]>();
    return docs.map(toInvoice);
  }

  async inChainOrder() {
    const docs = await this.models.Invoice.find({}).sort({ chainSeq: 1 }).lean<InvoiceDocument[]>();
    return docs.map(toInvoice);
  }

  async issuedBetween(start: Date, end: Date) {
    const docs = await this.models.Invoice.find({ 'record.issuedAt': { $gte: start, $lt: end } })
      .sort({ series: 1, year: 1, seq: 1 })
      .lean<InvoiceDocument[]>();
    return docs.map(toInvoice);
  }

  async insert(invoice: Invoice, recipient?: InvoiceRecipient, submission?: InvoiceSubmission) {
    // Rendered before the insert, so that the record and its document travel in the same write.
    const pdf = recipient && this.renderPdf ? await this.renderPdf(invoice) : undefined;
    const event = createEnvelope(
      invoiceIssued,
      {
        number: invoice.number,
        kind: invoice.kind,
        paymentId: invoice.paymentId,
        appointmentId: invoice.appointmentId,
        pacientId: invoice.patientId,
        totalCents: invoice.totalCents,
        currency: invoice.currency,
        issuedAt: invoice.issuedAt.toISOString(),
        ...(invoice.rectifies ? { rectifies: invoice.rectifies } : {}),
        method: invoice.method as Payment['method'],
        ...(recipient
          ? {
              appointmentDate: recipient.appointmentDate.toISOString(),
              user: { name: recipient.name, email: recipient.email },
            }
          : {}),
        ...(pdf ? { pdfBase64: pdf.toString('base64') } : {}),
      },
      correlationIdOrNew(),
    );
    const doc = withOutbox(
      {
        _id: invoice.number,
        series: invoice.series,
        year: invoice.year,
        seq: invoice.seq,
        chainSeq: invoice.chainSeq,
        sourceKey: invoice.sourceKey,
        appointmentId: invoice.appointmentId,
        patientId: invoice.patientId,
        record: invoice,
        // Beside the record, not in it: the fingerprint covers the record, the submission changes.
        ...(submission ? { submission } : {}),
      },
      event,
    );
    try {
      await this.models.Invoice.collection.insertOne(doc as never);
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return violatedField(error, ['sourceKey'] as const) ? ('duplicate' as const) : ('taken' as const);
    }
    this.outboxWritten();
    return 'inserted' as const;
  }
}
