import { centreDayOf } from '@crm/contracts';
import { DayPages, UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import { newestFirst, type ListingDocument, type RecordModels } from './record.models';

const BACKFILL_BATCH = 2_000;

/**
 * The list of records a day at a time (`record_days`, `DayPages` of @crm/server-kit; README,
 * "Paging"): each listing entry carries the centre day of its date, and every write that adds,
 * moves or removes an entry marks the days it touches first.
 */
export class RecordDays {
  readonly pages: DayPages<ListingDocument>;
  /** Set once no listing entry lacks its day: only then is the list read day by day. */
  private everyEntryHasDay = false;

  constructor(private readonly models: RecordModels) {
    this.pages = new DayPages(models.listingDays, {
      count: (day) => models.Listing.countDocuments({ day }),
      rows: async (day) => (await models.Listing.find({ day }).lean<ListingDocument[]>()).sort(newestFirst),
    });
  }

  get readable(): boolean {
    return this.everyEntryHasDay;
  }

  /** Gives up to `limit` entries written before `day` existed their day; answers how many. */
  async fillMissingDays(limit = BACKFILL_BATCH): Promise<number> {
    if (this.everyEntryHasDay) return 0;
    const missing = await this.models.Listing.find({ day: { $exists: false } })
      .select({ date: 1 })
      .limit(limit)
      .lean<Array<Pick<ListingDocument, '_id' | 'date'>>>();
    if (missing.length === 0) {
      this.everyEntryHasDay = true;
      return 0;
    }
    await this.pages.marked(missing.map((entry) => centreDayOf(entry.date.date)));
    for (let i = 0; i < missing.length; i += UPDATES_PER_COMMAND)
      await this.models.Listing.bulkWrite(
        missing.slice(i, i + UPDATES_PER_COMMAND).map((entry) => ({
          updateOne: {
            filter: { _id: entry._id, day: { $exists: false } },
            update: { $set: { day: centreDayOf(entry.date.date) } },
          },
        })),
        { ordered: false },
      );
    return missing.length;
  }
}
