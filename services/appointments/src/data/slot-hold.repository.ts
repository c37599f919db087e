import { Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { withOutboxUpdate } from '@crm/event-bus';
import { isDuplicateKey, violatedField } from '@crm/server-kit';
import { calendarOf, type Appointment, type SlotHolds } from '../domain/appointment';
import { newBookingCode, type BookingCodes } from '../domain/booking-code';
import { codeFields, keys, patientKeys, toAppointment } from './appointment.documents';
import { codeTaken, MAX_CODE_DRAWS } from './booking-codes';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { AppointmentDays } from './appointment-days';

/**
 * A reschedule's claim on its target slot (README, "Reschedule"): the `hold` document, inserted
 * under the slot's unique key and `moving:<old id>`, then turned into the new appointment's active
 * document once the old one has ended. Insert and delete decide everything; the one update (the
 * promotion) has no other writer, so FerretDB's read-modify-write cannot lose it.
 */
export class MongoSlotHolds implements SlotHolds {
  constructor(
    private readonly models: AppointmentModels,
    private readonly outboxWritten: () => void,
    private readonly codes: BookingCodes = newBookingCode,
  ) {
    this.days = new AppointmentDays(models);
  }

  /** Becoming active adds an appointment to the list of every appointment: its day is marked first. */
  private readonly days: AppointmentDays;

  async hold(
    from: Appointment,
    id: string,
    target: Date,
    now: Date,
    refundForfeited: boolean,
  ): Promise<'held' | 'slotTaken' | 'moving'> {
    const calendar = calendarOf(from);
    for (let draw = 1; ; draw++) {
      const bookingCode = this.codes();
      try {
        await this.insertHold(from, id, target, now, refundForfeited, calendar, bookingCode);
        return 'held';
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // The moved appointment gets a code of its own; one a live appointment has is drawn again.
        if (draw < MAX_CODE_DRAWS && (await codeTaken(this.models, error, bookingCode))) continue;
        // MongoDB names the index; FerretDB does not, so look for who holds the move key.
        const field = violatedField(error, ['slotKey', 'activePatientKey'] as const);
        if (field) return field === 'slotKey' ? 'slotTaken' : 'moving';
        const moving = await this.models.Appointment.exists({ activePatientKey: keys.moving(from.id) });
        return moving ? 'moving' : 'slotTaken';
      }
    }
  }

  private insertHold(
    from: Appointment,
    id: string,
    target: Date,
    now: Date,
    refundForfeited: boolean,
    calendar: { uid: string; sequence: number },
    bookingCode: string,
  ) {
    return this.models.Appointment.create({
      _id: new Types.ObjectId(id),
      appointmentId: id,
      kind: 'hold',
      date: target,
      status: 'booked',
      pacientId: from.patientId,
      user: from.user,
      ...patientKeys(from.user),
      bookedBy: from.bookedBy,
      bookedAt: now,
      channel: from.channel,
      walkIn: false,
      slotKey: target.toISOString(),
      activePatientKey: keys.moving(from.id),
      rescheduledFrom: { id: from.id, date: from.date },
      calendar: { uid: calendar.uid, sequence: calendar.sequence + 1 },
      ...(refundForfeited ? { refundForfeited: true } : {}),
      // A move keeps the hold of an unpaid booking, with the same end (not a fresh one).
      ...(from.paymentDueBy ? { paymentDueBy: from.paymentDueBy } : {}),
      ...codeFields(bookingCode),
    });
  }

  async promote(
    id: string,
    event: (moved: Appointment) => EventEnvelope,
  ): Promise<Appointment | 'patientBusy' | 'gone'> {
    const hold = await this.models.Appointment.findOne({ _id: id, kind: 'hold' }).lean<AppointmentDocument>();
    if (!hold) return 'gone';
    await this.days.markedOn(hold.date);
    const moved = toAppointment({ ...hold, kind: 'active' });
    try {
      const { matchedCount } = await this.models.Appointment.updateOne(
        { _id: id, kind: 'hold' },
        withOutboxUpdate({ $set: { kind: 'active', activePatientKey: hold.pacientId } }, event(moved)),
      );
      if (matchedCount === 0) return 'gone';
    } catch (error) {
      // The patient booked something else between the old appointment's end and this update.
      if (isDuplicateKey(error)) return 'patientBusy';
      throw error;
    }
    this.outboxWritten();
    return moved;
  }

  async release(id: string): Promise<void> {
    await this.models.Appointment.deleteOne({ _id: id, kind: 'hold' });
  }

  async movingFor(patientId: string): Promise<boolean> {
    return (await this.models.Appointment.exists({ kind: 'hold', pacientId: patientId })) !== null;
  }

  async staleHolds(before: Date): Promise<Array<{ id: string; fromId: string }>> {
    const holds = await this.models.Appointment.find({ kind: 'hold', bookedAt: { $lt: before } })
      .select({ appointmentId: 1, rescheduledFrom: 1 })
      .lean<Array<{ appointmentId: string; rescheduledFrom: { id: string } }>>();
    return holds.map((hold) => ({ id: hold.appointmentId, fromId: hold.rescheduledFrom.id }));
  }
}
