import { Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { withOutboxUpdate } from '@crm/event-bus';
import { isDuplicateKey } from '@crm/server-kit';
import { calendarOf, type Appointment } from '../domain/appointment';
import type { Patient } from '../domain/patient';
import type { OfferHolds, SlotOffer } from '../domain/waitlist';
import { newBookingCode, type BookingCodes } from '../domain/booking-code';
import { codeFields, keys, patientKeys, toAppointment } from './appointment.documents';
import { codeTaken, MAX_CODE_DRAWS } from './booking-codes';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { AppointmentDays } from './appointment-days';

type OfferDocument = AppointmentDocument & { offerExpiresAt: Date };

const toOffer = (doc: OfferDocument): SlotOffer => ({
  id: doc.appointmentId,
  date: doc.date,
  expiresAt: doc.offerExpiresAt,
  patientId: doc.pacientId,
});

/** The `offer` document that holds a slot for a patient of the waiting list (also the bulk seed's). */
export function offerDocument(
  offer: SlotOffer,
  patient: Patient,
  tokenHash: string,
  bookingCode: string,
  bookedAt = new Date(),
) {
  return {
    _id: new Types.ObjectId(offer.id),
    appointmentId: offer.id,
    kind: 'offer' as const,
    date: offer.date,
    status: 'booked' as const,
    pacientId: offer.patientId,
    user: patient,
    ...patientKeys(patient),
    bookedBy: { id: offer.patientId, rol: 'PACIENT' as const },
    bookedAt,
    channel: 'patient' as const,
    walkIn: false,
    slotKey: offer.date.toISOString(),
    activePatientKey: keys.offer(offer.id),
    offerTokenHash: tokenHash,
    offerExpiresAt: offer.expiresAt,
    ...codeFields(bookingCode),
  };
}

/**
 * Waiting-list offers as `offer` documents of the appointments collection (appointment.model.ts):
 * the insert under the slot's unique key holds the slot; claiming is the one update of the
 * document (its only writer: the offer's e-mail event lives in the waitlist's own record), and an
 * expired offer is deleted.
 */
export class MongoOfferHolds implements OfferHolds {
  constructor(
    private readonly models: AppointmentModels,
    private readonly outboxWritten: () => void,
    private readonly codes: BookingCodes = newBookingCode,
  ) {
    this.days = new AppointmentDays(models);
  }

  /** Becoming active adds an appointment to the list of every appointment: its day is marked first. */
  private readonly days: AppointmentDays;

  async hold(offer: SlotOffer, patient: Patient, tokenHash: string): Promise<boolean> {
    for (let draw = 1; ; draw++) {
      const bookingCode = this.codes();
      try {
        await this.insertOffer(offer, patient, tokenHash, bookingCode);
        return true;
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // The offer holds the code its appointment will have; one a live appointment has is drawn again.
        if (draw < MAX_CODE_DRAWS && (await codeTaken(this.models, error, bookingCode))) continue;
        return false;
      }
    }
  }

  private insertOffer(offer: SlotOffer, patient: Patient, tokenHash: string, bookingCode: string) {
    return this.models.Appointment.create(offerDocument(offer, patient, tokenHash, bookingCode));
  }

  async findByToken(tokenHash: string): Promise<SlotOffer | undefined> {
    const doc = await this.models.Appointment.findOne({
      kind: 'offer',
      offerTokenHash: tokenHash,
    }).lean<OfferDocument>();
    return doc ? toOffer(doc) : undefined;
  }

  async liveOffersOf(patientId: string): Promise<SlotOffer[]> {
    const docs = await this.models.Appointment.find({ kind: 'offer', pacientId: patientId }).lean<
      OfferDocument[]
    >();
    return docs.map(toOffer);
  }

  async claim(
    id: string,
    event: (booked: Appointment) => EventEnvelope,
  ): Promise<Appointment | 'patientBusy' | 'gone'> {
    const offer = await this.models.Appointment.findOne({ _id: id, kind: 'offer' }).lean<OfferDocument>();
    if (!offer) return 'gone';
    await this.days.markedOn(offer.date);
    const booked = toAppointment({ ...offer, kind: 'active', bookedAt: new Date() });
    try {
      const { matchedCount } = await this.models.Appointment.updateOne(
        { _id: id, kind: 'offer' },
        withOutboxUpdate(
          {
            $set: { kind: 'active', activePatientKey: offer.pacientId, bookedAt: booked.createdAt },
            $unset: { offerTokenHash: '', offerExpiresAt: '' },
          },
          event(booked),
        ),
      );
      if (matchedCount === 0) return 'gone';
    } catch (error) {
      if (isDuplicateKey(error)) return 'patientBusy';
      throw error;
    }
    this.outboxWritten();
    return booked;
  }

  async toMoveHold(
    id: string,
    from: Appointment,
    refundForfeited: boolean,
  ): Promise<'held' | 'moving' | 'gone'> {
    const calendar = calendarOf(from);
    try {
      const { matchedCount } = await this.models.Appointment.updateOne(
        { _id: id, kind: 'offer' },
        {
          $set: {
            kind: 'hold',
            activePatientKey: keys.moving(from.id),
            rescheduledFrom: { id: from.id, date: from.date },
            calendar: { uid: calendar.uid, sequence: calendar.sequence + 1 },
            channel: from.channel,
            bookedBy: from.bookedBy,
            bookedAt: new Date(),
            ...(refundForfeited ? { refundForfeited: true } : {}),
            // A move keeps the hold of an unpaid booking, with the same end.
            ...(from.paymentDueBy ? { paymentDueBy: from.paymentDueBy } : {}),
          },
          $unset: { offerTokenHash: '', offerExpiresAt: '' },
        },
      );
      return matchedCount === 0 ? 'gone' : 'held';
    } catch (error) {
      if (isDuplicateKey(error)) return 'moving';
      throw error;
    }
  }

  async expiredBefore(before: Date): Promise<SlotOffer[]> {
    const docs = await this.models.Appointment.find({
      kind: 'offer',
      offerExpiresAt: { $lt: before },
    }).lean<OfferDocument[]>();
    return docs.map(toOffer);
  }

  async drop(id: string): Promise<boolean> {
    const { deletedCount } = await this.models.Appointment.deleteOne({ _id: id, kind: 'offer' });
    return deletedCount > 0;
  }
}
