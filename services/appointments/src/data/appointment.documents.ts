import { foldName, personSearched, searchKeysOf } from '@crm/contracts';
import { Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import type { Appointment, NewAppointment } from '../domain/appointment';
import type { AppointmentDocument } from './appointment.model';

/**
 * The unique keys of an appointment's documents (see appointment.model.ts). Each document fills both
 * unique fields, `slotKey` and `activePatientKey`:
 *
 * | document                      | slotKey            | activePatientKey |
 * |-------------------------------|--------------------|------------------|
 * | active                        | slot ISO / walkin: | the patient's id |
 * | checkin                       | checkin:A          | released:A       |
 * | final, ended from booked      | released:A         | released:A       |
 * | final, ended from checked in  | released:A         | ended:A          |
 *
 * `released:A` as slotKey: one final copy per appointment. `released:A` as activePatientKey: one way
 * out of `booked` (a check-in or an end, never both).
 */
export const keys = {
  walkIn: (id: string) => `walkin:${id}`,
  released: (id: string) => `released:${id}`,
  checkIn: (id: string) => `checkin:${id}`,
  endedAfterCheckIn: (id: string) => `ended:${id}`,
  /** The patient key of a reschedule's hold: one move of an appointment at a time. */
  moving: (id: string) => `moving:${id}`,
  /** The patient key of a waiting-list offer (a patient may be offered several slots). */
  offer: (id: string) => `offer:${id}`,
};

/** One document as the appointment it describes (status as stored on that document). */
export function toAppointment(doc: AppointmentDocument): Appointment {
  const { user } = doc;
  return {
    id: doc.appointmentId,
    date: doc.date,
    status: doc.status,
    patientId: doc.pacientId,
    user: { id: user.id, name: user.name, email: user.email, ...(user.phone ? { phone: user.phone } : {}) },
    bookedBy: { id: doc.bookedBy.id, rol: doc.bookedBy.rol },
    channel: doc.channel,
    walkIn: doc.walkIn,
    createdAt: doc.bookedAt,
    ...(doc.checkedInAt ? { checkedInAt: doc.checkedInAt } : {}),
    ...(doc.kind === 'final' && doc.endedAt ? { endedAt: doc.endedAt } : {}),
    ...(doc.calendar ? { calendar: { uid: doc.calendar.uid, sequence: doc.calendar.sequence } } : {}),
    ...(doc.rescheduledTo ? { rescheduledTo: doc.rescheduledTo } : {}),
    ...(doc.rescheduledFrom
      ? { rescheduledFrom: { id: doc.rescheduledFrom.id, date: doc.rescheduledFrom.date } }
      : {}),
    ...(typeof doc.refundable === 'boolean' ? { refundable: doc.refundable } : {}),
    ...(doc.refundForfeited ? { refundForfeited: true as const } : {}),
    ...(doc.bookingCode ? { bookingCode: doc.bookingCode } : {}),
    ...(doc.paymentDueBy ? { paymentDueBy: doc.paymentDueBy } : {}),
  };
}

/**
 * The appointments as they are now, one per appointment id, in the order they first appear (holds
 * left out): the
 * final copy if there is one (a crash may have left the active document beside it); else the active
 * document, `checkedIn` when it has a check-in document (whose patient snapshot may be older).
 */
export function currentOf(docs: AppointmentDocument[]): Appointment[] {
  const groups = new Map<
    string,
    { active?: AppointmentDocument; checkin?: AppointmentDocument; final?: AppointmentDocument }
  >();
  for (const doc of docs) {
    // A reschedule's hold and a waiting-list offer are not appointments (yet).
    if (doc.kind === 'hold' || doc.kind === 'offer') continue;
    const group = groups.get(doc.appointmentId) ?? {};
    group[doc.kind] = doc;
    groups.set(doc.appointmentId, group);
  }
  const current: Appointment[] = [];
  for (const { active, checkin, final } of groups.values()) {
    if (final) current.push(toAppointment(final));
    else if (active && checkin)
      current.push({ ...toAppointment(active), status: 'checkedIn', checkedInAt: checkin.checkedInAt! });
    else if (active) current.push(toAppointment(active));
    else if (checkin) current.push(toAppointment(checkin));
  }
  return current;
}

/** What the list sorts and searches a document by: its patient's folded name and search keys. */
export const patientKeys = (user: { name: string; email: string; phone?: string | null }) => ({
  nameKey: foldName(user.name),
  searchKeys: searchKeysOf(personSearched(user)),
});

/** The active document of a new appointment, with its booking code and booked event. */
export function activeDocument(
  appointment: NewAppointment,
  id: string,
  bookingCode: string,
  event: EventEnvelope,
) {
  const { patientId, ...rest } = appointment;
  return withOutbox(
    {
      _id: new Types.ObjectId(id),
      appointmentId: id,
      kind: 'active' as const,
      pacientId: patientId,
      ...rest,
      status: 'booked' as const,
      ...patientKeys(appointment.user),
      bookedAt: new Date(),
      slotKey: appointment.walkIn ? keys.walkIn(id) : appointment.date.toISOString(),
      activePatientKey: patientId,
      ...codeFields(bookingCode),
    },
    event,
  );
}

/**
 * The booking code on a document that holds it (active, hold, offer): `bookingCode` to read, and
 * `codeKey` under the sparse unique index, which copies (check-in, final) leave out — so the code is
 * free again once the active document is deleted, and two live appointments never share one.
 */
export const codeFields = (bookingCode: string) => ({ bookingCode, codeKey: bookingCode });

/**
 * A copy of the active document as another kind (check-in, final), under other keys. The active
 * document's pending events are not copied: the relay publishes them from there (see `pendingEvents`
 * for a copy that outlives it).
 */
export function copyOf(
  active: AppointmentDocument,
  fields: Partial<AppointmentDocument>,
  events: EventEnvelope[],
) {
  const {
    _id: _activeId,
    outbox: _pending,
    outboxRejected: _rejected,
    outboxPending: _flag,
    // The copy shows the code but does not hold it (see `codeFields`).
    codeKey: _codeKey,
    ...kept
  } = active as AppointmentDocument & { outbox?: unknown; outboxRejected?: unknown; outboxPending?: unknown };
  const copy = { ...kept, _id: new Types.ObjectId(), ...fields };
  return events.length ? withOutbox(copy, ...events) : copy;
}

/**
 * The events the relay has not yet published from a document. The final copy of an ended appointment
 * carries them ahead of its own, because the active document is deleted right after: an appointment
 * booked and cancelled within a moment would otherwise lose its booked event. Should the relay have
 * been publishing one of them at that moment, it goes out twice, which consumers drop by its id
 * (delivery is at-least-once).
 */
export function pendingEvents(document: AppointmentDocument): EventEnvelope[] {
  const { outbox } = document as AppointmentDocument & { outbox?: EventEnvelope[] };
  return Array.isArray(outbox) ? outbox : [];
}
