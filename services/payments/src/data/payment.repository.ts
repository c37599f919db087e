import type { EventEnvelope } from '@crm/contracts';
import { withOutbox, withOutboxUpdate } from '@crm/event-bus';
import { isDuplicateKey } from '@crm/server-kit';
import type { KnownAppointment, Payment, Refund } from '../domain/payment';
import type { AppointmentStore, PaymentStore } from '../domain/payment-store';
import type { PaymentsModels } from './payments.models';

type PaymentDocument = Omit<Payment, 'id'> & { _id: string; refundDueAt?: Date; invoiceOwed?: boolean };

function toPayment(doc: PaymentDocument): Payment {
  const {
    _id,
    refundDueAt: _due,
    invoiceOwed: _owed,
    ...rest
  } = doc as PaymentDocument & Record<string, unknown>;
  delete (rest as Record<string, unknown>).outbox;
  delete (rest as Record<string, unknown>).outboxPending;
  const refund = rest.refund as (Refund & Record<string, unknown>) | undefined;
  return {
    ...(rest as Omit<Payment, 'id'>),
    id: _id,
    ...(refund
      ? {
          refund: {
            ...refund,
            requestedAt: new Date(refund.requestedAt),
            nextAttemptAt: new Date(refund.nextAttemptAt),
            ...(refund.confirmedAt ? { confirmedAt: new Date(refund.confirmedAt) } : {}),
          },
        }
      : {}),
  };
}

/** Payments in MongoDB: each change a conditional `updateOne` carrying its event (outbox). */
export class MongoPaymentStore implements PaymentStore {
  constructor(
    private readonly models: PaymentsModels,
    private readonly outboxWritten: () => void,
  ) {}

  private async one(filter: Record<string, unknown>) {
    const doc = await this.models.Payment.findOne(filter).lean<PaymentDocument>();
    return doc ? toPayment(doc) : undefined;
  }

  byId(id: string) {
    return this.one({ _id: id });
  }
  byKey(key: string) {
    return this.one({ key });
  }
  byOrder(order: string) {
    return this.one({ order });
  }

  async forAppointment(appointmentId: string | string[]) {
    const ids = Array.isArray(appointmentId) ? appointmentId : [appointmentId];
    const docs = await this.models.Payment.find({ appointmentId: { $in: ids } })
      .sort({ createdAt: 1 })
      .lean<PaymentDocument[]>();
    return docs.map(toPayment);
  }

  async insert(payment: Payment, event?: EventEnvelope) {
    const { id, ...fields } = payment;
    const owed = payment.status === 'succeeded' ? { invoiceOwed: true } : {};
    const doc = event ? withOutbox({ _id: id, ...fields, ...owed }, event) : { _id: id, ...fields, ...owed };
    try {
      await this.models.Payment.collection.insertOne(doc as never);
    } catch (error) {
      if (isDuplicateKey(error)) return 'duplicate' as const;
      throw error;
    }
    if (event) this.outboxWritten();
    return 'inserted' as const;
  }

  private async change(
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    event?: EventEnvelope,
  ) {
    const result = await this.models.Payment.collection.updateOne(
      filter as never,
      (event ? withOutboxUpdate(update, event) : update) as never,
    );
    if (result.modifiedCount === 1 && event) this.outboxWritten();
    return result.modifiedCount === 1;
  }

  markSucceeded(
    id: string,
    fields: Pick<Payment, 'paidAt' | 'method' | 'responseCode'>,
    event: EventEnvelope,
  ) {
    return this.change(
      { _id: id, status: 'pending' },
      { $set: { ...fields, status: 'succeeded', invoiceOwed: true } },
      event,
    );
  }

  markFailed(id: string, fields: Pick<Payment, 'failedAt' | 'responseCode'>, event: EventEnvelope) {
    return this.change({ _id: id, status: 'pending' }, { $set: { ...fields, status: 'failed' } }, event);
  }

  requestRefund(id: string, refund: Refund) {
    // The condition is the "never twice": only a succeeded payment without a refund gets one.
    return this.change(
      { _id: id, status: 'succeeded', refund: { $exists: false } },
      { $set: { refund, refundDueAt: refund.nextAttemptAt } },
    );
  }

  confirmRefund(id: string, confirmedAt: Date, event: EventEnvelope) {
    return this.change(
      { _id: id, 'refund.status': 'requested' },
      {
        $set: {
          'refund.status': 'confirmed',
          'refund.confirmedAt': confirmedAt,
          status: 'refunded',
          invoiceOwed: true,
        },
        $unset: { refundDueAt: '' },
      },
      event,
    );
  }

  async postponeRefund(id: string, attempts: number, nextAttemptAt: Date) {
    await this.change(
      { _id: id, 'refund.status': 'requested' },
      {
        $set: {
          'refund.attempts': attempts,
          'refund.nextAttemptAt': nextAttemptAt,
          refundDueAt: nextAttemptAt,
        },
      },
    );
  }

  async dueRefunds(now: Date, limit: number) {
    const docs = await this.models.Payment.find({ refundDueAt: { $lte: now } })
      .limit(limit)
      .lean<PaymentDocument[]>();
    return docs.map(toPayment);
  }

  async missingInvoices(limit: number) {
    const docs = await this.models.Payment.find({ invoiceOwed: true }).limit(limit).lean<PaymentDocument[]>();
    return docs.map(toPayment);
  }

  async setInvoice(id: string, field: 'invoiceNumber' | 'rectifyingInvoiceNumber', number: string) {
    await this.models.Payment.collection.updateOne({ _id: id } as never, { $set: { [field]: number } });
    // Nothing more is owed once the invoice (and, after a refund, the rectifying one) exists.
    await this.models.Payment.collection.updateOne(
      {
        _id: id,
        invoiceNumber: { $exists: true },
        $or: [{ status: { $ne: 'refunded' } }, { rectifyingInvoiceNumber: { $exists: true } }],
      } as never,
      { $unset: { invoiceOwed: '' } },
    );
  }
}

/** The appointments read model: one document per appointment, replaced by each newer fact. */
/** How many moves back an appointment's payments are looked for. */
const MAX_MOVES = 20;

export class MongoAppointmentStore implements AppointmentStore {
  constructor(private readonly models: PaymentsModels) {}

  async byId(id: string): Promise<KnownAppointment | undefined> {
    const doc = await this.models.Appointment.findById(id).lean<{
      _id: string;
      patientId: string;
      patientName: string;
      patientEmail: string;
      date: Date;
      status: KnownAppointment['status'];
      previousId?: string;
      releasedUnpaid?: boolean;
    }>();
    if (!doc) return undefined;
    const { _id, ...rest } = doc;
    return { id: _id, ...rest, date: new Date(rest.date) };
  }

  async lineage(id: string): Promise<string[]> {
    const ids = [id];
    let current = await this.byId(id);
    while (current?.previousId && !ids.includes(current.previousId) && ids.length <= MAX_MOVES) {
      ids.push(current.previousId);
      current = await this.byId(current.previousId);
    }
    return ids;
  }

  async markReleasedUnpaid(ids: string[]): Promise<void> {
    await this.models.Appointment.collection.updateMany({ _id: { $in: ids } } as never, {
      $set: { releasedUnpaid: true },
    });
  }

  async record(appointment: KnownAppointment) {
    const { id, status, ...fields } = appointment;
    // A late "booked" (events out of order) never reopens a cancelled or deleted appointment.
    const keepStatus = status === 'booked';
    await this.models.Appointment.collection.updateOne(
      { _id: id } as never,
      keepStatus ? { $set: fields, $setOnInsert: { status } } : { $set: { ...fields, status } },
      { upsert: true },
    );
  }
}
