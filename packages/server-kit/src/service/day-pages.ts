import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { UPDATES_PER_COMMAND } from './mongo';

/**
 * Lists paged a day at a time (the access trail, the clinical records): FerretDB 1.24 serves no sort
 * and no range from an index, only equalities, so a sorted page of a large collection decoded every
 * document. A list whose documents carry their day (`day`, `YYYY-MM-DD`) and whose days are counted
 * here reads a page as the rows of the days it falls on (one equality each), sorted in memory; on
 * MongoDB the same reads use the `day` index.
 *
 * The counts (`{_id: day, rows, dirty, mark, markedAt}`) are never added up, only counted: every
 * write marks its days dirty first (a fresh `mark`); a count clears `dirty` only if the mark is the
 * one it read and older than `MARK_SETTLE_MS` (the write it announced is done by then, even if the
 * writer crashed before finishing), so a day can stay dirty for a while, never be wrong and clean.
 * A reader loads the dirty days of its range and counts them itself.
 */
export interface CountedDay {
  /** `YYYY-MM-DD`. */
  _id: string;
  rows: number;
  dirty: boolean;
  mark: string;
  markedAt: Date;
}

/** A mark younger than this is not cleared: the write it announced may still be under way. */
export const MARK_SETTLE_MS = 60_000;

/** Days read at once (each an equality on `day`); the connection pool has 20. */
const IN_FLIGHT = 8;

export function countedDaysModel(connection: Connection, modelName: string, collection: string) {
  const registered = connection.models[modelName] as Model<CountedDay> | undefined;
  if (registered) return registered;
  const schema = new Schema<CountedDay>(
    {
      _id: { type: String },
      rows: { type: Number, required: true },
      dirty: { type: Boolean, required: true },
      mark: { type: String, required: true },
      markedAt: { type: Date, required: true },
    },
    { collection, versionKey: false },
  );
  return connection.model<CountedDay>(modelName, schema);
}

/** Where a day-paged list's rows are: one day's count, and one day's rows in list order. */
export interface DaySource<T> {
  count(day: string): Promise<number>;
  rows(day: string): Promise<T[]>;
}

/**
 * A read that would have to load more days than this itself (a backlog of dirty days after an
 * outage or a backfill) is not served by days: the caller reads its sorted index instead, until
 * the background count catches up.
 */
export const MAX_DAYS_LOADED = 31;

export class DayPages<T> {
  constructor(
    private readonly model: Model<CountedDay>,
    private readonly source: DaySource<T>,
  ) {}

  /** Before a write that adds, removes or moves rows of these days. */
  async marked(days: Iterable<string | undefined>, now = new Date()): Promise<void> {
    const unique = [...new Set(days)].filter((day): day is string => day !== undefined);
    for (let i = 0; i < unique.length; i += UPDATES_PER_COMMAND)
      await this.model.bulkWrite(
        unique.slice(i, i + UPDATES_PER_COMMAND).map((day) => ({
          updateOne: {
            filter: { _id: day },
            update: { $set: { dirty: true, mark: randomUUID(), markedAt: now }, $setOnInsert: { rows: 0 } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
  }

  /** Counts up to `limit` dirty days whose mark has settled; answers how many it counted. */
  async settle(limit = 50, now = new Date()): Promise<number> {
    const settled = (await this.model.find({ dirty: true }).lean<CountedDay[]>())
      .filter((day) => day.markedAt.getTime() <= now.getTime() - MARK_SETTLE_MS)
      .slice(0, limit);
    await inBatches(settled, async (day) => {
      const rows = await this.source.count(day._id);
      await this.model.updateOne({ _id: day._id, mark: day.mark }, { $set: { rows, dirty: false } });
    });
    return settled.length;
  }

  /** The days from `first` to `last` (both optional, included), newest first, with exact counts. */
  async listing({
    first,
    last,
    keep,
  }: { first?: string; last?: string; keep?: (row: T) => boolean } = {}): Promise<DayListing<T> | undefined> {
    const days = (await this.model.find().lean<CountedDay[]>())
      .filter(({ _id }) => (!first || _id >= first) && (!last || _id <= last))
      .sort((a, b) => (a._id < b._id ? 1 : -1));
    // The range's end days may be only partly in it (`keep` says which rows are).
    const toLoad = days.filter(({ _id, dirty }) => dirty || _id === first || _id === last);
    if (toLoad.length > MAX_DAYS_LOADED) return undefined;
    const loaded = new Map<string, T[]>();
    await inBatches(toLoad, async ({ _id }) => {
      const rows = await this.source.rows(_id);
      loaded.set(_id, keep ? rows.filter(keep) : rows);
    });
    return { days, loaded };
  }

  /** One page of a listing and its total; the days not loaded yet are read now. */
  async page(listing: DayListing<T>, page: number, limit: number): Promise<{ rows: T[]; total: number }> {
    const slices = daysOfPage(countsOf(listing), (page - 1) * limit, limit);
    const rows = await inBatches(slices, async ({ day, skip, take }) =>
      (listing.loaded.get(day) ?? (await this.source.rows(day))).slice(skip, skip + take),
    );
    return { rows: rows.flat(), total: totalOf(listing) };
  }
}

/** How many rows of a list one day holds. */
export interface DayCount {
  day: string;
  rows: number;
}

/** What to read of one day for a page: its rows in list order, `skip` of them, then `take`. */
export interface DaySlice {
  day: string;
  skip: number;
  take: number;
}

/**
 * The days a page falls on, for a list made of whole days in order (`days`, in the list's order):
 * rows `skip` to `skip + limit`, found from the days' counts alone, so a deep page is read without
 * reading the pages before it. Past the end: nothing.
 */
export function daysOfPage(days: readonly DayCount[], skip: number, limit: number): DaySlice[] {
  const slices: DaySlice[] = [];
  let before = 0;
  let wanted = limit;
  for (const { day, rows } of days) {
    if (wanted <= 0) break;
    if (before + rows > skip) {
      const from = Math.max(0, skip - before);
      const take = Math.min(rows - from, wanted);
      slices.push({ day, skip: from, take });
      wanted -= take;
    }
    before += rows;
  }
  return slices;
}

/**
 * A list as its days, newest first, with exact counts: the days in `loaded` (dirty ones, and the
 * end days of a range) count the rows loaded; the others their stored count.
 */
export interface DayListing<T> {
  days: readonly CountedDay[];
  loaded: ReadonlyMap<string, readonly T[]>;
}

const countsOf = <T>({ days, loaded }: DayListing<T>): DayCount[] =>
  days
    .map(({ _id, rows }) => ({ day: _id, rows: loaded.get(_id)?.length ?? rows }))
    .filter(({ rows }) => rows > 0);

/** How many rows a day listing holds. */
export const totalOf = <T>(listing: DayListing<T>): number =>
  countsOf(listing).reduce((sum, { rows }) => sum + rows, 0);

/** Runs `work` on every item, a few at a time; answers the results in order. */
export async function inBatches<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += IN_FLIGHT)
    results.push(...(await Promise.all(items.slice(i, i + IN_FLIGHT).map(work))));
  return results;
}
