import { Schema, type Connection } from 'mongoose';
import { isDuplicateKey } from '@crm/server-kit';
import type { Appointment } from '../domain/appointment';
import type { HoldOutcome, PaymentHolds } from '../domain/payment-hold';
import { currentOf } from './appointment.documents';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { documentsOfAppointments } from './equality-reads';

const PAGE = 500;
/** How far back ended holds are looked for (a week: a service down over a weekend still releases). */
const HOLD_LOOKBACK_MS = 7 * 24 * 3_600_000;

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

  async due(before: Date, page = PAGE): Promise<Appointment[]> {
    // Appointments are never updated (insert/delete only), so a paid hold keeps its `paymentDueBy`:
    // the decided ones are left out here, or enough paid appointments still to come would fill every
    // page and hide the unpaid ones behind them. Holds that ended more than HOLD_LOOKBACK_MS ago
    // were released (or paid) long since, unless the service was down all that time.
    const candidates = await this.models.Appointment.find({
      kind: 'active',
      paymentDueBy: { $lt: before, $gte: new Date(before.getTime() - HOLD_LOOKBACK_MS) },
    })
      .select({ appointmentId: 1 })
      .lean<Pick<AppointmentDocument, 'appointmentId'>[]>();
    if (candidates.length === 0) return [];
    const ids = candidates.map((c) => c.appointmentId);
    const decided = new Set(
      (await this.Decision.find({ _id: { $in: ids } }, { _id: 1 }).lean<{ _id: string }[]>()).map(
        (d) => d._id,
      ),
    );
    const docs = candidates.filter((c) => !decided.has(c.appointmentId)).slice(0, page);
    if (docs.length === 0) return [];
    const related = await documentsOfAppointments(
      this.models,
      docs.map((d) => d.appointmentId),
    );
    // A checked-in patient is at the centre: the desk takes the money, nothing is released.
    return currentOf(related).filter((a) => a.status === 'booked');
  }
}
