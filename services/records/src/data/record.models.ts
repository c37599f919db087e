import { Schema, type Connection } from 'mongoose';
import { centreDayOf, foldName, searchKeysOf, type Searched } from '@crm/contracts';
import { outboxPlugin } from '@crm/event-bus';
import { dayPagesModels } from '@crm/server-kit/service';
import type { ClinicalRecord } from '../domain/record';

/**
 * Why revisions: FerretDB 1.24 does not apply concurrent updates of one document atomically
 * (measured: 50 parallel `$inc` on one document → 8; conditional updates let several writers win),
 * so a record that is updated in place can lose a doctor's change to a concurrent update, or to
 * the outbox relay removing a published event from the same document. Inserts are safe: the
 * unique `_id` index is enforced. So every save of a record inserts one immutable revision with
 * its event in its outbox (only the relay writes to it afterwards), `_id = <recordId>:<revision>`.
 * The unique id is the concurrency control: two saves of revision n + 1 cannot both succeed.
 */
const person = (withId: boolean) =>
  new Schema(
    withId
      ? { id: { type: String, required: true }, name: { type: String, required: true } }
      : { name: { type: String, required: true } },
    {
      _id: false,
      id: false,
    },
  );

const recordFields = {
  recordId: { type: String, required: true },
  revision: { type: Number, required: true },
  userId: { type: String, required: true },
  dateId: { type: String, required: true },
  doctor: { type: person(true), required: true },
  user: { type: person(false), required: true },
  date: {
    type: new Schema({ date: { type: Date, required: true } }, { _id: false, id: false }),
    required: true,
  },
  // Keys are field names (letters, digits and _ only, checked); values are normalised entries.
  metadata: { type: Schema.Types.Mixed, required: true },
  configVersion: { type: Number, required: true },
  view: { type: String, required: true },
  updatedBy: {
    type: new Schema({ id: { type: String, required: true } }, { _id: false, id: false }),
    required: true,
  },
  createdAt: { type: Date, required: true },
  updatedAt: { type: Date, required: true },
};

const revisionSchema = new Schema(
  { _id: { type: String, required: true }, ...recordFields },
  { collection: 'record_revisions', versionKey: false, minimize: false },
);
revisionSchema.plugin(outboxPlugin);
revisionSchema.index({ recordId: 1, revision: -1 });
revisionSchema.index({ userId: 1 });

/**
 * The latest revision of each record, for the paged list and the search (`_id = recordId`). It is
 * derived: written after each revision, only ever moved forward, and never the source of a read
 * of one record. No outbox on it, so the relay never writes to it.
 */
const listingSchema = new Schema(
  {
    _id: { type: String, required: true },
    ...recordFields,
    /** Accent- and case-free names, for search (foldName of @crm/contracts). */
    userKey: { type: String, required: true },
    doctorKey: { type: String, required: true },
    /**
     * What the search looks up: the starts of the words of the patient's and the doctor's names
     * (`searchKeysOf` of @crm/contracts). Entries written before it existed get it from the
     * background pass; until then the search checks every entry.
     */
    searchKeys: { type: [String], default: undefined },
    /**
     * The centre day of `date.date`, so the list is paged a day at a time by an equality (README,
     * "Paging"); entries written before it existed get it from the background pass.
     */
    day: { type: String },
  },
  { collection: 'records', versionKey: false, minimize: false },
);
listingSchema.index({ 'date.date': -1, _id: -1 });
listingSchema.index({ userId: 1 });
listingSchema.index({ day: 1 });
listingSchema.index({ searchKeys: 1 });

/** What a revision stores: the record as it was saved, under `recordId` (its `_id` is per revision). */
export type RecordFields = Omit<ClinicalRecord, 'id'> & { recordId: string };

export type RevisionDocument = RecordFields & { _id: string };
export type ListingDocument = RecordFields & {
  _id: string;
  userKey: string;
  doctorKey: string;
  searchKeys?: string[];
  day?: string;
};

/** The listing entry of a revision's fields (without its `_id`). */
export const listingOf = (fields: RecordFields): Omit<ListingDocument, '_id' | 'day'> & { day: string } => ({
  ...fields,
  userKey: foldName(fields.user.name),
  doctorKey: foldName(fields.doctor.name),
  searchKeys: listingSearchKeys(fields),
  day: centreDayOf(fields.date.date),
});

/** The list's order in memory: newest appointment first, `_id` breaking ties (as `NEWEST_FIRST`). */
export const newestFirst = (a: ListingDocument, b: ListingDocument): number =>
  b.date.date.getTime() - a.date.date.getTime() || (a._id < b._id ? 1 : -1);

/** What the list's search looks at: the patient's and the doctor's names. */
export const listingSearched = (fields: Pick<RecordFields, 'user' | 'doctor'>): Searched => ({
  texts: [fields.user.name, fields.doctor.name],
});

export const listingSearchKeys = (fields: Pick<RecordFields, 'user' | 'doctor'>): string[] =>
  searchKeysOf(listingSearched(fields));

export const revisionId = (recordId: string, revision: number) => `${recordId}:${revision}`;

/** Patients who erased their account: their records are kept, pseudonymised, until the retention ends. */
const erasedPatientSchema = new Schema(
  { _id: { type: String, required: true }, erasedAt: { type: Date, required: true } },
  { collection: 'erased_patients', versionKey: false },
);

export function recordModels(connection: Connection) {
  return {
    Revision: connection.model('RecordRevision', revisionSchema),
    Listing: connection.model('RecordListing', listingSchema),
    /** How many listing entries each centre day holds, and its marks (data/record-days.ts). */
    listingDays: dayPagesModels(connection, 'RecordListingDay', 'record_days'),
    ErasedPatient: connection.model('ErasedPatient', erasedPatientSchema),
  };
}
export type RecordModels = ReturnType<typeof recordModels>;
