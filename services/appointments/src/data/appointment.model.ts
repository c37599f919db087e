import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { APPOINTMENT_STATUSES, BOOKING_CHANNELS, centreDayOf, ROLES } from '@crm/contracts';
import { outboxPlugin } from '@crm/event-bus';
import { dayPagesModels, retireIndexes } from '@crm/server-kit/service';

const actorSchema = new Schema(
  { id: { type: String, required: true }, rol: { type: String, enum: ROLES, required: true } },
  { _id: false },
);

const patientSnapshotSchema = new Schema(
  {
    id: { type: String, required: true },
    name: { type: String, required: true },
    email: { type: String, required: true },
    phone: String,
  },
  { _id: false },
);

/**
 * One collection, three kinds of document, because FerretDB 1.24 has no atomic update (an update is
 * a read-modify-write of the whole document, so concurrent updates are lost) while inserts under a
 * unique index and deletes are atomic on it and on MongoDB alike (README, "Concurrency design"):
 *
 * - `active`: a booked appointment. Its `slotKey` (the slot's ISO instant, `walkin:<id>` for the
 *   kiosk's off-grid bookings) and `activePatientKey` (the patient's id) sit under unique indexes,
 *   so the insert that books it wins both or fails: one patient per slot, one active appointment
 *   per patient. Only the outbox relay (and a best-effort patient refresh) writes to it afterwards.
 * - `checkin`: the check-in of an active appointment (a copy with status `checkedIn`). Its keys are
 *   `checkin:<id>` and `released:<id>`: the latter is also what the final copy of a *booked*
 *   appointment takes, so a check-in and an end from booked exclude each other, and only one
 *   check-in can exist. The active document stays and keeps slot and patient held. Never deleted.
 * - `final`: the appointment once it stopped being active. Ending = insert the final copy, whose
 *   `slotKey` is `released:<id>` (one end per appointment, and its event is stored by that insert)
 *   and whose `activePatientKey` is `released:<id>` when it ends from booked, `ended:<id>` when from
 *   checked in; then delete the active document, which frees slot and patient. A crash in between
 *   leaves both; the final copy is the truth and housekeeping removes the stale active one.
 * - `hold`: a reschedule's claim on its target slot (`slotKey` = the slot, `activePatientKey`
 *   `moving:<old id>`, so one move of an appointment at a time), under the new appointment's id. It
 *   is not an appointment: no read lists it. Once the old appointment has ended (cancelled, naming
 *   the new one), the hold becomes the new active document (its only writer, one update); a hold
 *   left by a crash is finished or dropped by housekeeping (README, "Reschedule").
 * - `offer`: a freed slot held for the first patient of the day's waiting list (`slotKey` = the
 *   slot, `activePatientKey` `offer:<id>`) until `offerExpiresAt`. Claiming it turns it into the
 *   patient's active document (or a reschedule's hold when they have an appointment to move); an
 *   expired one is deleted, which frees the slot for the next in line (README, "Waiting list").
 */
const appointmentSchema = new Schema(
  {
    /** The public id: the active document's `_id`, kept by its final copy. */
    appointmentId: { type: String, required: true },
    kind: { type: String, enum: ['active', 'checkin', 'final', 'hold', 'offer'], required: true },
    date: { type: Date, required: true },
    /**
     * `date`'s day at the centre (YYYY-MM-DD), set from it whenever a document is made (below): the
     * agenda reads a day by this equality, which FerretDB 1.24 hands to PostgreSQL and its index
     * (a date range it does not: it would decode every ended appointment of the centre's history).
     * Documents made before it existed get it from the start-up backfill (repository, `fillMissingDays`).
     */
    day: { type: String },
    status: { type: String, enum: APPOINTMENT_STATUSES, required: true },
    /** The patient's id, stored under the API's name: another name would mean migrating every document. */
    pacientId: { type: String, required: true },
    user: { type: patientSnapshotSchema, required: true },
    /** The name folded to lower case without accents, so sorting and search treat "Álvaro" like "alvaro". */
    nameKey: { type: String, required: true },
    /**
     * The keys the list's search looks up (`searchKeysOf` of @crm/contracts: the starts of the
     * name's and e-mail's words and of the phone). Documents made before it existed get it from
     * the start-up backfill; until then the search checks every document.
     */
    searchKeys: { type: [String], default: undefined },
    bookedBy: { type: actorSchema, required: true },
    bookedAt: { type: Date, required: true },
    channel: { type: String, enum: BOOKING_CHANNELS, required: true },
    walkIn: { type: Boolean, required: true },
    slotKey: { type: String, required: true },
    activePatientKey: { type: String, required: true },
    endedBy: { type: actorSchema },
    endedAt: { type: Date },
    /** Check-in documents, and final copies of checked-in appointments. */
    checkedInAt: { type: Date },
    checkedInBy: { type: actorSchema },
    /** A final copy ended as attended because this clinical record was saved. */
    recordId: { type: String },
    /** The calendar entry its e-mails carry: the first appointment's id, and a count of moves. */
    calendar: {
      type: new Schema(
        { uid: { type: String, required: true }, sequence: { type: Number, required: true } },
        { _id: false },
      ),
    },
    /** A final copy cancelled by a reschedule: the appointment that took its place. */
    rescheduledTo: { type: String },
    /** An appointment a reschedule made: the one it replaced. */
    rescheduledFrom: {
      type: new Schema(
        { id: { type: String, required: true }, date: { type: Date, required: true } },
        { _id: false },
      ),
    },
    /** An offer: the SHA-256 of its e-mailed token, and when it stops holding the slot. */
    offerTokenHash: { type: String },
    offerExpiresAt: { type: Date },
    /** A cancellation made more than the centre's refund window before the start. */
    refundable: { type: Boolean },
    /** A patient's move inside the refund window made it: its cancellation is not refunded. */
    refundForfeited: { type: Boolean },
    /** What the patient shows at the kiosk (docs/product/kiosk.md#proof); every copy keeps it to show it. */
    bookingCode: { type: String },
    /**
     * The booking code again, only on the documents that hold it (active, hold, offer), under a
     * sparse unique index: two live appointments never share a code, and a code is free again once
     * its active document is deleted. (FerretDB 1.24 has no partial indexes; a sparse one behaves
     * alike on both servers: documents without the field are not indexed.)
     */
    codeKey: { type: String },
    /** Held unpaid until then: the centre requires online payment (README, "Slot hold until paid"). */
    paymentDueBy: { type: Date },
    /** A final copy cancelled by the kiosk's "be seen now": the walk-in that replaces it. */
    replacement: {
      type: new Schema(
        {
          id: { type: String, required: true },
          date: { type: Date, required: true },
          bookedBy: { type: actorSchema, required: true },
        },
        { _id: false },
      ),
    },
  },
  { collection: 'appointments', versionKey: false },
);
/** Events are written in the same document write as the change they describe. */
appointmentSchema.plugin(outboxPlugin);
// Every document is made by `create` or `insertMany` (both validate), and no write moves `date`.
appointmentSchema.pre('validate', function () {
  if (this.isNew || this.isModified('date')) this.day = centreDayOf(this.date);
});
// Each index and the reads that need it: README, "Indexes" (a test checks the table against this list).
// The three unique ones are the booking rules themselves (one appointment per slot, one live
// appointment per patient, one live holder per booking code), whatever reads them.
appointmentSchema.index({ slotKey: 1 }, { unique: true });
appointmentSchema.index({ activePatientKey: 1 }, { unique: true });
appointmentSchema.index({ codeKey: 1 }, { unique: true, sparse: true });
appointmentSchema.index({ appointmentId: 1 });
/** By kind and date, `_id` breaking ties: the list (`kind` in active/final, by date), the agenda, free slots. */
appointmentSchema.index({ kind: 1, date: 1, _id: 1 });
appointmentSchema.index({ pacientId: 1, date: -1 });
/** A day's appointments, every kind: the agenda. */
appointmentSchema.index({ day: 1 });
/** The list filtered by one status, by date with `_id` breaking ties. */
appointmentSchema.index({ status: 1, date: 1, _id: 1 });
appointmentSchema.index({ status: 1, nameKey: 1 });
/** The search: one key looked up, the other words checked on what it found. */
appointmentSchema.index({ searchKeys: 1 });
appointmentSchema.index({ kind: 1, endedAt: 1 });
appointmentSchema.index({ kind: 1, paymentDueBy: 1 }, { sparse: true });
/**
 * Replaced by the same keys followed by `_id` (the lists sort by date then `_id`; without it the
 * tie-break was an in-memory sort of every match): dropped at start-up.
 */
retireIndexes(appointmentSchema, ['kind_1_date_1', 'status_1_date_1']);

export type AppointmentDocument = InferSchemaType<typeof appointmentSchema> & { _id: unknown };

const patientSchema = new Schema(
  {
    _id: { type: String },
    name: { type: String, required: true },
    email: { type: String, required: true },
    phone: { type: String },
    /** Whether the e-mail address is confirmed, as the auth service's events last said (absent: not said). */
    confirmed: { type: Boolean },
    /** When the auth service last said this; older news (a late event) never overwrites newer. */
    asOf: { type: Date, required: true },
  },
  { collection: 'patients', versionKey: false },
);

export type PatientDocument = InferSchemaType<typeof patientSchema>;

export function appointmentModels(connection: Connection) {
  return {
    Appointment: connection.model('Appointment', appointmentSchema),
    Patient: connection.model('Patient', patientSchema),
    /** The list of every appointment, counted a day at a time (appointment-days.ts). */
    listDays: dayPagesModels(connection, 'AppointmentListDay', 'appointment_days'),
  };
}

export type AppointmentModels = ReturnType<typeof appointmentModels>;
