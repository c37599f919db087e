import { Schema, type Connection, type InferSchemaType } from 'mongoose';
import { personSearched, ROLES, searchKeysOf } from '@crm/contracts';
import { outboxPlugin } from '@crm/event-bus';
import { retireIndexes } from '@crm/server-kit/service';

const userSchema = new Schema(
  {
    name: { type: String, required: true },
    /** Stored lower-cased, so the unique index makes e-mails unique regardless of case. */
    email: { type: String, required: true },
    phone: { type: String },
    rol: { type: String, enum: ROLES, required: true },
    passwordHash: { type: String },
    confirmed: { type: Boolean, required: true, default: false },
    confirmationTokenHash: { type: String },
    confirmationExpiresAt: { type: Date },
    resetTokenHash: { type: String },
    resetExpiresAt: { type: Date },
    sessionsValidAfter: { type: Date },
    disabled: { type: Boolean },
    mfaSecret: { type: String },
    mfaPendingSecret: { type: String },
    mfaRecoveryHashes: { type: [String], default: undefined },
    /**
     * What the lists' search looks up (`searchKeysOf` of @crm/contracts: the starts of the words of
     * the name and e-mail address, and of the phone), written with them. Accounts made before it
     * existed get it from a background pass; until then the search checks every document.
     */
    searchKeys: { type: [String], default: undefined },
  },
  { collection: 'users', timestamps: true, versionKey: false },
);
/** Events are written in the same document write as the change they describe. */
userSchema.plugin(outboxPlugin);
userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ confirmationTokenHash: 1 });
userSchema.index({ resetTokenHash: 1 });
/** The paged lists (`GET /users`, `/users/pacients`): one role, by name, `_id` breaking ties. */
userSchema.index({ rol: 1, name: 1, _id: 1 });
/** Without `_id` the tie-break was an in-memory sort of every account of the role: dropped at start-up. */
retireIndexes(userSchema, ['rol_1_name_1']);
/** The search: one key looked up, the other words checked on what it found. */
userSchema.index({ searchKeys: 1 });

/** The search keys of an account: the starts of its name, e-mail address and phone. */
export const userSearchKeys = (user: { name: string; email: string; phone?: string | null }): string[] =>
  searchKeysOf(personSearched(user));

export type UserDocument = InferSchemaType<typeof userSchema> & { _id: unknown; createdAt: Date };

/**
 * Ended sessions: a signed-out token (`_id` = its id) or a user's "valid after" instant (`_id`
 * `valid-after:<user>:<seconds>`). `storedAt` lets the Redis copy be written again after an outage.
 */
const revokedSessionSchema = new Schema(
  {
    _id: { type: String },
    expiresAt: { type: Date, required: true },
    storedAt: { type: Date },
    userId: { type: String },
    validAfter: { type: Number },
  },
  { collection: 'revoked_sessions', versionKey: false },
);
// No TTL index: FerretDB does not implement expireAfterSeconds; expired entries are purged on write.
revokedSessionSchema.index({ expiresAt: 1 });
revokedSessionSchema.index({ storedAt: 1 });
/** Each ended session is announced to the other services (`auth.session.ended.v1`) from here. */
revokedSessionSchema.plugin(outboxPlugin);

/** One-time tokens already used, keyed `<purpose>:<hash>`: the unique _id makes use single. */
const consumedTokenSchema = new Schema(
  { _id: { type: String }, consumedAt: { type: Date, required: true } },
  { collection: 'consumed_tokens', versionKey: false },
);

/**
 * Marks of the patient list (`patient-list.ts`): an account about to be added, renamed or erased
 * (`userId`, or `*` after a bulk load), so every replica reads it again. Small (an hour of
 * changes) and read whole: no index.
 */
const patientListMarkSchema = new Schema(
  { _id: { type: String }, userId: { type: String, required: true }, at: { type: Date, required: true } },
  { collection: 'patient_list_marks', versionKey: false },
);

export function userModels(connection: Connection) {
  return {
    User: connection.model('User', userSchema),
    PatientListMark: connection.model('PatientListMark', patientListMarkSchema),
    RevokedSession: connection.model('RevokedSession', revokedSessionSchema),
    ConsumedToken: connection.model('ConsumedToken', consumedTokenSchema),
  };
}

export type UserModels = ReturnType<typeof userModels>;
