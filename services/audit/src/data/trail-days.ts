import { centreDayOf } from '@crm/contracts';
import { DayPages, UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import type { AuditModels, EntryDocument } from './audit.models';

export type StoredEntry = EntryDocument & { _id: string };

/** A patient's month of the trail (`<patientId>|YYYY-MM`, the centre month of `at`): a page of their trail reads a few. */
export const patientMonthOf = (patientId: string, at: Date): string =>
  `${patientId}|${centreDayOf(at).slice(0, 7)}`;
const patientOfMonth = (key: string): string => key.slice(0, key.indexOf('|'));

/** Newest first (`at`, then `_id`), as every read of the trail. */
const newestFirst = (rows: StoredEntry[]): StoredEntry[] =>
  rows.sort((a, b) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : -1));

const BACKFILL_BATCH = 2_000;
/** MongoDB's "not authorised": the database user may not update the trail (README, "Retention"). */
const UNAUTHORIZED = 13;

/**
 * The trail's days (`trail_days`) and each patient's months (`trail_patient_months`), `DayPages` of
 * @crm/server-kit: the whole trail and a date range are paged a day at a time, one patient's trail
 * a month at a time (README, "Paging"); and the backfill of `day` and `patientMonth` on rows stored
 * before they existed.
 */
export class TrailDays {
  readonly pages: DayPages<StoredEntry>;
  readonly patientPages: DayPages<StoredEntry>;
  /** `done` once no row lacks its day or month: only then can the trail be read by them. */
  private backfill: 'pending' | 'done' | 'refused' = 'pending';

  constructor(private readonly models: AuditModels) {
    this.pages = new DayPages(models.trailDays, {
      count: (day) => models.Entry.countDocuments({ day }),
      rows: async (day) => newestFirst(await models.Entry.find({ day }).lean<StoredEntry[]>()),
    });
    this.patientPages = new DayPages(
      models.patientMonths,
      {
        count: (patientMonth) => models.Entry.countDocuments({ patientMonth }),
        rows: async (patientMonth) =>
          newestFirst(await models.Entry.find({ patientMonth }).lean<StoredEntry[]>()),
      },
      undefined,
      patientOfMonth,
    );
  }

  get readable(): boolean {
    return this.backfill === 'done';
  }

  /** Before rows are stored: their days and their patients' months are marked. */
  async marked(rows: ReadonlyArray<{ day?: string; patientMonth?: string }>): Promise<void> {
    await this.pages.marked(rows.map((row) => row.day));
    await this.patientPages.marked(rows.map((row) => row.patientMonth));
  }

  /**
   * Gives up to `limit` rows stored before `day` or `patientMonth` existed those fields (the
   * backfill's only write to a stored row: fields derived from `at` and `patientId`, never a
   * recorded fact), and marks those days and months. A database user without `update` on the trail
   * refuses it: the trail is then read by its sorted indexes.
   */
  async fillMissingDays(limit = BACKFILL_BATCH): Promise<number | 'refused'> {
    if (this.backfill !== 'pending') return this.backfill === 'refused' ? 'refused' : 0;
    const missing = await this.models.Entry.find({
      $or: [
        { day: { $exists: false } },
        { patientId: { $type: 'string' }, patientMonth: { $exists: false } },
      ],
    })
      .select({ at: 1, patientId: 1, day: 1 })
      .limit(limit)
      .lean<Array<{ _id: string; at: Date; patientId?: string | null; day?: string }>>();
    if (missing.length === 0) {
      this.backfill = 'done';
      return 0;
    }
    const derived = missing.map((row) => ({
      _id: row._id,
      day: centreDayOf(row.at),
      ...(row.patientId ? { patientMonth: patientMonthOf(row.patientId, row.at) } : {}),
    }));
    // A day is marked only for rows that had none: the others are in its count already.
    await this.marked(derived.map((row, i) => ({ ...row, day: missing[i]!.day ? undefined : row.day })));
    try {
      // Through the driver: the model refuses every update (append-only), on purpose.
      for (let i = 0; i < derived.length; i += UPDATES_PER_COMMAND)
        await this.models.Entry.collection.bulkWrite(
          derived.slice(i, i + UPDATES_PER_COMMAND).map(({ _id, ...fields }) => ({
            updateOne: { filter: { _id: _id as never }, update: { $set: fields } },
          })),
          { ordered: false },
        );
    } catch (error) {
      if ((error as { code?: number }).code !== UNAUTHORIZED) throw error;
      this.backfill = 'refused';
      return 'refused';
    }
    return missing.length;
  }
}
