import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { AUDIT_ACTOR_ROLES, AUDIT_OUTCOMES } from '@crm/contracts';
import { dayPagesModels, retireIndexes } from '@crm/server-kit/service';

/**
 * `entries`: the trail, one row per patient named by an entry (see domain/audit-entry.ts).
 * Append-only by construction: the repository only inserts and reads, and every mongoose path that
 * could change or remove a stored row throws (below), so a future "quick fix" cannot slip one in.
 * There is no TTL index and no expiry of any kind: rows are kept (at least the 5 years the law asks;
 * in practice for ever), see README "Retention".
 */
const entrySchema = new Schema(
  {
    /** `<eventId>:<n>`. */
    _id: { type: String },
    eventId: { type: String, required: true },
    row: { type: Number, required: true },
    at: { type: Date, required: true },
    /**
     * The centre day of `at` (`YYYY-MM-DD`), so the whole trail and date ranges are read a day at a
     * time by an equality (see data/trail-days.ts). Rows stored before it existed get it from the
     * background backfill, the one write to a stored row, which adds this derived field only.
     */
    day: { type: String },
    /**
     * `<patientId>|YYYY-MM` (the centre month of `at`) on a row about a patient, so one patient's
     * trail is read a month at a time by an equality (data/trail-days.ts); backfilled like `day`.
     */
    patientMonth: { type: String },
    actorId: { type: String, required: true },
    actorName: { type: String },
    /** The name folded (lower case, no accents) for the name search. */
    nameKey: { type: String },
    actorRol: { type: String, enum: AUDIT_ACTOR_ROLES, required: true },
    action: { type: String, required: true },
    patientId: { type: String },
    resource: { type: String, required: true },
    resourceId: { type: String },
    requestId: { type: String },
    clientRequestId: { type: String },
    clientAddress: { type: String },
    outcome: { type: String, enum: AUDIT_OUTCOMES },
    /** An administrator's stated reason for a platform action. */
    reason: { type: String },
    /** When this service stored it (the entry's own time is `at`). */
    storedAt: { type: Date, required: true },
  },
  { collection: 'entries', versionKey: false },
);
/** The event id, enforced: one stored copy of each row of each event, however often it is delivered. */
entrySchema.index({ eventId: 1, row: 1 }, { unique: true });
// Every read of the trail is newest first with `_id` breaking ties (`at: -1, _id: -1`): each index
// ends with both, so a page is read off the index in order, never sorted in memory (README, "Indexes").
entrySchema.index({ at: -1, _id: -1 });
entrySchema.index({ patientId: 1, at: -1, _id: -1 });
entrySchema.index({ actorId: 1, at: -1, _id: -1 });
entrySchema.index({ action: 1, at: -1, _id: -1 });
entrySchema.index({ day: 1 });
entrySchema.index({ patientMonth: 1 });
/** The same indexes without `_id`, which left the tie-break to an in-memory sort: dropped at start-up. */
retireIndexes(entrySchema, ['at_-1', 'patientId_1_at_-1', 'actorId_1_at_-1', 'action_1_at_-1']);

const APPEND_ONLY = new Error('audit entries are append-only: they are never updated or deleted');
const refuse = () => {
  throw APPEND_ONLY;
};
for (const operation of [
  'updateOne',
  'updateMany',
  'replaceOne',
  'findOneAndUpdate',
  'findOneAndReplace',
  'findOneAndDelete',
  'deleteOne',
  'deleteMany',
] as const) {
  entrySchema.pre(operation, refuse);
}
entrySchema.pre('bulkWrite', refuse);
entrySchema.pre('save', function () {
  if (!this.isNew) throw APPEND_ONLY;
});

export type EntryDocument = InferSchemaType<typeof entrySchema>;

/** Staff and kiosk accounts by id, so the trail can show names the producer did not know. */
const staffSchema = new Schema(
  {
    _id: { type: String },
    name: { type: String, required: true },
    rol: { type: String, enum: AUDIT_ACTOR_ROLES, required: true },
    /** When the auth service last said this; older news never overwrites newer. */
    asOf: { type: Date, required: true },
  },
  { collection: 'staff', versionKey: false },
);

export function auditModels(connection: Connection) {
  return {
    Entry: connection.model('AuditEntry', entrySchema),
    Staff: connection.model('StaffMember', staffSchema),
    /** How many rows each centre day of the trail holds, and its marks (see data/trail-days.ts). */
    trailDays: dayPagesModels(connection, 'TrailDay', 'trail_days'),
    /** How many rows each patient's month of the trail holds, and its marks (data/trail-days.ts). */
    patientMonths: dayPagesModels(connection, 'TrailPatientMonth', 'trail_patient_months', { scoped: true }),
  };
}

export type AuditModels = ReturnType<typeof auditModels>;
