import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from '@crm/server-kit';
import type { Appointment } from '../domain/appointment';
import type { HoldOutcome, PaymentHolds } from '../domain/payment-hold';
import { currentOf } from './appointment.documents';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';

const PAGE = 500;

/**
 * How each held appointment's hold ended: `paid` (a payment succeeded for it) or `released` (the sweep
 * gave the slot up). One document per appointment id, insert-only: whichever insert comes first
 * decides, so a payment and the sweep meeting at the hold's end agree on one outcome (README, "Slot
 * hold until paid").
 */
const decisionSchema = new Schema(
  {
    _id: { type: String },
    outcome: { type: String, enum: ['paid', 'released'], required: true },
    at: { type: Date, required: true },
  },
  { collection: 'payment_hold_decisions', versionKey: false },
);

export class MongoPaymentHolds implements PaymentHolds {
  private readonly Decision;

  constructor(
    connection: Connection,
    private readonly models: AppointmentModels,
  ) {
    this.Decision = connection.model('PaymentHoldDecision', decisionSchema);
  }

  async decide(appointmentId: string, outcome: HoldOutcome, at: Date): Promise<HoldOutcome> {
    try {
      await this.Decision.create({ _id: appointmentId, outcome, at });
      return outcome;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const first = await this.Decision.findById(appointmentId).lean<{ outcome: HoldOutcome }>();
      return first?.outcome ?? outcome;
    }
  }

  async paidAmong(appointmentIds: string[]): Promise<boolean> {
    if (appointmentIds.length === 0) return false;
    return (await this.Decision.exists({ _id: { $in: appointmentIds }, outcome: 'paid' })) !== null;
  }

  async due(before: Date): Promise<Appointment[]> {
    const docs = await this.models.Appointment.find({ kind: 'active', paymentDueBy: { $lt: before } })
      .limit(PAGE)
      .lean<AppointmentDocument[]>();
    if (docs.length === 0) return [];
    const related = await this.models.Appointment.find({
      appointmentId: { $in: docs.map((d) => d.appointmentId) },
    }).lean<AppointmentDocument[]>();
    // A checked-in patient is at the centre: the desk takes the money, nothing is released.
    return currentOf(related).filter((a) => a.status === 'booked');
  }
}
