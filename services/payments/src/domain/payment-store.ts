import type { EventEnvelope } from '@crm/contracts';
import type { KnownAppointment, Payment, Refund } from './payment';

/** Payments, each state change one conditional single-document write carrying its event. */
export interface PaymentStore {
  byId(id: string): Promise<Payment | undefined>;
  byKey(key: string): Promise<Payment | undefined>;
  byOrder(order: string): Promise<Payment | undefined>;
  /** The payments of an appointment, or of several (an appointment and those it was moved from). */
  forAppointment(appointmentId: string | string[]): Promise<Payment[]>;
  /** `duplicate` when a payment with the same key (or order) exists. */
  insert(payment: Payment, event?: EventEnvelope): Promise<'inserted' | 'duplicate'>;
  /** pending → succeeded; false when it was not pending (a second notification). */
  markSucceeded(
    id: string,
    fields: Pick<Payment, 'paidAt' | 'method' | 'responseCode'>,
    event: EventEnvelope,
  ): Promise<boolean>;
  /** pending → failed; false when it was not pending. */
  markFailed(
    id: string,
    fields: Pick<Payment, 'failedAt' | 'responseCode'>,
    event: EventEnvelope,
  ): Promise<boolean>;
  /** Stores the refund request on a succeeded payment that has none: false otherwise (never twice). */
  requestRefund(id: string, refund: Refund): Promise<boolean>;
  /** requested → confirmed, the payment `refunded`; false when it was already confirmed. */
  confirmRefund(id: string, confirmedAt: Date, event: EventEnvelope): Promise<boolean>;
  postponeRefund(id: string, attempts: number, nextAttemptAt: Date): Promise<void>;
  dueRefunds(now: Date, limit: number): Promise<Payment[]>;
  /** Succeeded (or refunded) payments without their invoice, refunds without their rectifying one. */
  missingInvoices(limit: number): Promise<Payment[]>;
  setInvoice(id: string, field: 'invoiceNumber' | 'rectifyingInvoiceNumber', number: string): Promise<void>;
}

/** The appointments read model. */
export interface AppointmentStore {
  byId(id: string): Promise<KnownAppointment | undefined>;
  /** Stores what an event says; a status never goes back from cancelled/deleted to booked. */
  record(appointment: KnownAppointment): Promise<void>;
  /** The appointment's id and those it was moved from (reschedules), newest first. */
  lineage(id: string): Promise<string[]>;
  /** Marks these appointments released unpaid (the slot hold ended without a payment). */
  markReleasedUnpaid(ids: string[]): Promise<void>;
}
