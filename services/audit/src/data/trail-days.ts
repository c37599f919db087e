import { centreDayOf } from '@crm/contracts';
import { DayPages, UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import type { AuditModels, EntryDocument } from './audit.models';

export type StoredEntry = EntryDocument & { _id: string };

const BACKFILL_BATCH = 2_000;
/** MongoDB's "not authorised": the database user may not update the trail (README, "Retention"). */
const UNAUTHORIZED = 13;

/**
 * The trail's days (`trail_days`, `DayPages` of @crm/server-kit), so the whole trail and a date
 * range are paged a day at a time (README, "Paging"), and the backfill of `day` on rows stored
 * before it existed.
 */
export class TrailDays {
  readonly pages: DayPages<StoredEntry>;
  /** `done` once no row lacks its day: only then can the whole trail be read day by day. */
  private backfill: 'pending' | 'done' | 'refused' = 'pending';

  constructor(private readonly models: AuditModels) {
    this.pages = new DayPages(models.trailDays, {
      count: (day) => models.Entry.countDocuments({ day }),
      rows: (day) => this.rowsOf(day),
    });
  }

  get readable(): boolean {
    return this.backfill === 'done';
  }

  /** The rows of one day, newest first (`at`, then `_id`, as every read of the trail). */
  private async rowsOf(day: string): Promise<StoredEntry[]> {
    const rows = await this.models.Entry.find({ day }).lean<StoredEntry[]>();
    return rows.sort((a, b) => b.at.getTime() - a.at.getTime() || (a._id < b._id ? 1 : -1));
  }

  /**
   * Gives up to `limit` rows stored before `day` existed their day (the backfill's only write to a
   * stored row: a field derived from `at`, never a recorded fact), and marks those days. A database
   * user without `update` on the trail refuses it: the trail is then read by its sorted indexes.
   */
  async fillMissingDays(limit = BACKFILL_BATCH): Promise<number | 'refused'> {
    if (this.backfill !== 'pending') return this.backfill === 'refused' ? 'refused' : 0;
    const missing = await this.models.Entry.find({ day: { $exists: false } })
      .select({ at: 1 })
      .limit(limit)
      .lean<Array<{ _id: string; at: Date }>>();
    if (missing.length === 0) {
      this.backfill = 'done';
      return 0;
    }
    await this.pages.marked(missing.map((row) => centreDayOf(row.at)));
    try {
      // Through the driver: the model refuses every update (append-only), on purpose.
      for (let i = 0; i < missing.length; i += UPDATES_PER_COMMAND)
        await this.models.Entry.collection.bulkWrite(
          missing.slice(i, i + UPDATES_PER_COMMAND).map((row) => ({
            updateOne: {
              filter: { _id: row._id as never, day: { $exists: false } },
              update: { $set: { day: centreDayOf(row.at) } },
            },
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
