import { Schema, type Connection } from 'mongoose';
import { outboxPlugin } from '@crm/event-bus';

/**
 * The service's collections. Every state change is ONE conditional single-document write (no
 * transactions: FerretDB 1.24 and MongoDB 7 alike); uniqueness is what makes repeats harmless:
 * `payments.key` (one attempt per appointment and try, one desk payment per double click),
 * `payments.order` (one payment per gateway order), `invoices` by number, chain position and source.
 */
const paymentSchema = new Schema(
  {
    _id: { type: String, required: true },
    key: { type: String, required: true },
    appointmentId: { type: String, required: true },
    patientId: { type: String, required: true },
    provider: { type: String, required: true },
    method: { type: String, required: true },
    amountCents: { type: Number, required: true },
    currency: { type: String, required: true },
    status: { type: String, required: true },
    order: { type: String, required: true },
    createdAt: { type: Date, required: true },
    paidAt: Date,
    failedAt: Date,
    responseCode: String,
    recordedById: String,
    refund: { type: Schema.Types.Mixed },
    refundDueAt: Date,
    invoiceNumber: String,
    rectifyingInvoiceNumber: String,
    /** Set while an invoice is owed (succeeded without one, refund confirmed without its rectifying one). */
    invoiceOwed: Boolean,
  },
  { collection: 'payments', versionKey: false, minimize: false },
);
paymentSchema.plugin(outboxPlugin);
paymentSchema.index({ key: 1 }, { unique: true });
// Desk payments get `desk-<id>` as order, so every document has one (no sparse unique index).
paymentSchema.index({ order: 1 }, { unique: true });
paymentSchema.index({ appointmentId: 1 });
paymentSchema.index({ refundDueAt: 1 });
paymentSchema.index({ invoiceOwed: 1 });

const appointmentSchema = new Schema(
  {
    _id: { type: String, required: true },
    patientId: { type: String, required: true },
    patientName: { type: String, default: '' },
    patientEmail: { type: String, default: '' },
    date: { type: Date, required: true },
    status: { type: String, required: true },
    /** A reschedule made it from this appointment: the payments of both are one. */
    previousId: { type: String },
    /** Released unpaid by the appointments service's slot hold. */
    releasedUnpaid: { type: Boolean },
  },
  { collection: 'appointments', versionKey: false },
);

const invoiceSchema = new Schema(
  {
    _id: { type: String, required: true },
    series: { type: String, required: true },
    year: { type: Number, required: true },
    seq: { type: Number, required: true },
    chainSeq: { type: Number, required: true },
    sourceKey: { type: String, required: true },
    appointmentId: { type: String, required: true },
    patientId: { type: String, required: true },
    record: { type: Schema.Types.Mixed, required: true },
    /** Where the record stands with the tax agency (`{status: 'not-configured'}` with VERIFACTU_MODE=off). */
    submission: { type: Schema.Types.Mixed },
  },
  { collection: 'invoices', versionKey: false, minimize: false },
);
invoiceSchema.plugin(outboxPlugin);
invoiceSchema.index({ chainSeq: 1 }, { unique: true });
invoiceSchema.index({ series: 1, year: 1, seq: 1 }, { unique: true });
invoiceSchema.index({ sourceKey: 1 }, { unique: true });
invoiceSchema.index({ appointmentId: 1 });
// The export of a period's invoices.
invoiceSchema.index({ 'record.issuedAt': 1 });

export function paymentsModels(connection: Connection) {
  return {
    Payment: connection.model('Payment', paymentSchema),
    Appointment: connection.model('Appointment', appointmentSchema),
    Invoice: connection.model('Invoice', invoiceSchema),
  };
}
export type PaymentsModels = ReturnType<typeof paymentsModels>;
