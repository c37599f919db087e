import { randomUUID } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import { onlyDuplicateKeys } from '../duplicate-key';

/**
 * Lists paged a day at a time (the access trail, the clinical records, every appointment): FerretDB
 * 1.24 serves no sort and no range from an index, only equalities, so a sorted page of a large
 * collection decoded every document. A list whose documents carry their day (`day`, `YYYY-MM-DD`) and whose days are counted
 * here reads a page as the rows of the days it falls on (one equality each), sorted in memory; on
 * MongoDB the same reads use the `day` index.
 *
 * Counts are never added up, only counted, and nothing here is updated concurrently (FerretDB's
 * updates are read-modify-writes that can lose one another): every write first inserts a mark of its
 * days (`<collection>_marks`, `{_id, day, at}`; a process that marked a day less than
 * `MARK_REUSE_MS` ago lets that mark cover its next writes to it, so a busy day costs one insert a
 * minute, not one per write). A day with marks is dirty: readers load and count it themselves. The
 * background pass counts a day once its marks are `MARK_SETTLE_MS` old (every write they cover is
 * done by then, even if its writer crashed), stores the count (`<collection>`, `{_id: day, rows}`),
 * then deletes those marks; a younger mark keeps the day dirty. A bulk load dates its marks ahead
 * (`bulkLoad`), so the pass leaves its days alone, and retires them once its writes are done
 * (`settleOwn`).
 *
 * Scoped lists (`scopeOf`: one list per patient of the trail) share one collection: a "day" is then
 * a key `<scope>|<period>`, and its count and marks also store the scope, which a listing reads
 * by (an equality, under an index).
 */
export interface CountedDay {
  /** `YYYY-MM-DD` (or `<scope>|<period>` in a scoped list). */
  _id: string;
  rows: number;
  scope?: string;
}

interface DayMark {
  _id: string;
  day: string;
  at: Date;
  scope?: string;
}

/** A mark younger than this is not counted: a write it covers may still be under way. */
export const MARK_SETTLE_MS = 5 * 60_000;

/** How long a process's mark of a day covers its later writes to that day. */
export const MARK_REUSE_MS = 60_000;

/**
 * A bulk load's marks are dated this far ahead (`bulkLoad`): its writes to a day may go on for longer
 * than `MARK_SETTLE_MS`, so the background pass leaves its days to its `settleOwn`, and counts them
 * only this much later if the load died before.
 */
export const LOAD_HOLD_MS = 60 * 60_000;

/**
 * A process re-reads only the counts of the days it last saw dirty and sees clean now, as long as
 * it read the marks less than this ago: a count changes only once a mark of its day is
 * `MARK_SETTLE_MS` old, so such a mark was there at the last read (half of it: margin for the
 * insert of a mark to land after its date). Otherwise, or after a `RELOAD_MARK`, it reads them all.
 */
const COUNTS_REUSE_MS = MARK_SETTLE_MS / 2;

/**
 * The mark `settleOwn` leaves once it has stored counts without the wait above (its own marks may
 * have lived for seconds): a process that sees a new one reads all the counts again; the background
 * pass deletes it once settled, and never counts it. (A read during a bulk load's `settleOwn` may
 * still see a count it replaced, until that mark.)
 */
const RELOAD_MARK = '*';

/** The marks of writes (every mark but a `RELOAD_MARK`): what a day's count waits for. */
export const WRITE_MARKS = { day: { $ne: RELOAD_MARK } };

/** Own marks of one day kept for `settleOwn` before the old ones are forgotten. */
const KEPT_MARKS_A_DAY = 10;

/** Days read at once (each an equality on `day`); the connection pool has 20. */
const IN_FLIGHT = 8;

const model = <T>(connection: Connection, name: string, schema: Schema<T>): Model<T> =>
  (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);

/**
 * The counts and the marks of a day-paged list, in `collection` and `<collection>_marks`; `scoped`:
 * many lists in them, each read by its scope (indexed).
 */
export function dayPagesModels(
  connection: Connection,
  modelName: string,
  collection: string,
  { scoped = false } = {},
) {
  const days = new Schema<CountedDay>(
    { _id: { type: String }, rows: { type: Number, required: true }, scope: { type: String } },
    { collection, versionKey: false },
  );
  const marks = new Schema<DayMark>(
    {
      _id: { type: String },
      day: { type: String, required: true },
      at: { type: Date, required: true },
      scope: { type: String },
    },
    { collection: `${collection}_marks`, versionKey: false },
  );
  if (scoped) for (const schema of [days, marks] as Schema[]) schema.index({ scope: 1 });
  return {
    days: model(connection, modelName, days),
    marks: model(connection, `${modelName}Mark`, marks),
  };
}
export type DayPagesModels = ReturnType<typeof dayPagesModels>;

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

/** A day of a listing: its stored count, and whether marks say it may be off. */
export interface ListedDay {
  day: string;
  rows: number;
  dirty: boolean;
}

export class DayPages<T> {
  /** The marks this process inserted and has not retired, by day, newest last. */
  private readonly markedHere = new Map<string, DayMark[]>();
  /** Set by `bulkLoad` until `settleOwn`. */
  private loading = false;
  /** The counts of an unscoped list as last read, the days then dirty, and when (see `COUNTS_REUSE_MS`). */
  private counts?: { rows: Map<string, number>; dirty: Set<string>; at: number };
  /** The `RELOAD_MARK`s seen (by id) and acted on. */
  private reloadsSeen = new Set<string>();

  constructor(
    private readonly models: DayPagesModels,
    private readonly source: DaySource<T>,
    private readonly clock: () => Date = () => new Date(),
    /** A scoped list's scope of a key (`<scope>|<period>`); none: one list. */
    private readonly scopeOf?: (key: string) => string,
  ) {}

  /** What a count or a mark of `day` stores besides it: its scope, in a scoped list. */
  private scoped(day: string): { scope?: string } {
    return this.scopeOf ? { scope: this.scopeOf(day) } : {};
  }

  /** This instance marks for a bulk load from now until its `settleOwn` (see `LOAD_HOLD_MS`). */
  bulkLoad(): this {
    this.loading = true;
    return this;
  }

  /** Before a write that adds, removes or moves rows of these days. */
  async marked(days: Iterable<string | undefined>): Promise<void> {
    const now = this.clock();
    const at = this.loading ? new Date(now.getTime() + LOAD_HOLD_MS) : now;
    const marks = [...new Set(days)]
      .filter((day): day is string => day !== undefined)
      .filter(
        (day) =>
          !(now.getTime() - (this.markedHere.get(day)?.at(-1)?.at.getTime() ?? -Infinity) < MARK_REUSE_MS),
      )
      .map((day) => ({ _id: randomUUID(), day, at, ...this.scoped(day) }));
    if (marks.length === 0) return;
    await this.models.marks.insertMany(marks, { ordered: false });
    for (const mark of marks) {
      const own = [...(this.markedHere.get(mark.day) ?? []), mark];
      // A day written to all along (today, in a service) keeps only what the background pass will
      // not count yet; a bulk load's few marks a day stay until it retires them.
      this.markedHere.set(
        mark.day,
        own.length > KEPT_MARKS_A_DAY
          ? own.filter(({ at }) => now.getTime() - at.getTime() < MARK_SETTLE_MS)
          : own,
      );
    }
  }

  /** Counts up to `limit` days whose marks have settled; answers how many it counted. */
  async settle(limit = 50): Promise<number> {
    const before = this.clock().getTime() - MARK_SETTLE_MS;
    const settled = groupByDay(
      (await this.models.marks.find().lean<DayMark[]>()).filter(({ at }) => at.getTime() <= before),
    );
    const reloads = settled.filter(([day]) => day === RELOAD_MARK).flatMap(([, marks]) => marks);
    if (reloads.length > 0)
      await this.models.marks.deleteMany({ _id: { $in: reloads.map(({ _id }) => _id) } });
    const days = settled.filter(([day]) => day !== RELOAD_MARK).slice(0, limit);
    await inBatches(days, ([day, marks]) => this.count(day, marks));
    return days.length;
  }

  /**
   * Counts the days this process marked and retires its marks: for a bulk load whose writes are all
   * done (the marks of other writers stay, and keep their days dirty). `added`: how many rows the
   * load stored on each day, if it knows; a day that has never been counted and that nobody else
   * marked holds exactly those (every writer marks before writing, and only a count, which stores
   * the day, removes marks), so it is not counted again: a count of each day of a fresh load of
   * five years (1 825 index reads on a table PostgreSQL has not analysed yet) took 10 minutes.
   */
  async settleOwn(added?: ReadonlyMap<string, number>): Promise<number> {
    const own = [...this.markedHere];
    this.markedHere.clear();
    this.loading = false;
    if (own.length === 0) return 0;
    // Which days were counted before, or marked by someone else: two reads for the whole load (a
    // query per day was 5 000 queries for five years).
    const ownIds = new Set(own.flatMap(([, marks]) => marks.map(({ _id }) => _id)));
    const [counted, marks] = await Promise.all([
      this.models.days.find().select({ _id: 1 }).lean<Array<Pick<CountedDay, '_id'>>>(),
      this.models.marks.find().select({ _id: 1, day: 1 }).lean<Array<Pick<DayMark, '_id' | 'day'>>>(),
    ]);
    const countedBefore = new Set(counted.map(({ _id }) => _id));
    const markedByOthers = new Set(marks.filter(({ _id }) => !ownIds.has(_id)).map(({ day }) => day));
    const knownRows = ([day]: [string, DayMark[]]) =>
      countedBefore.has(day) || markedByOthers.has(day) ? undefined : added?.get(day);
    const known = own.filter((entry) => knownRows(entry) !== undefined);
    // The counts first, then the marks they cover (a crash in between counts those days again).
    // Inserts: these days have no count yet (an upsert each was most of a five-year load on
    // FerretDB); one stored meanwhile by a count of the rows is as good, and kept.
    if (known.length > 0)
      await this.models.days.collection
        .insertMany(
          known.map((entry) => ({
            _id: entry[0] as never,
            rows: knownRows(entry)!,
            ...this.scoped(entry[0]),
          })),
          { ordered: false },
        )
        .catch((error: unknown) => {
          if (!onlyDuplicateKeys(error)) throw error;
        });
    if (known.length > 0)
      await this.models.marks.deleteMany({ _id: { $in: known.flatMap(([, m]) => m.map(({ _id }) => _id)) } });
    await inBatches(
      own.filter((entry) => knownRows(entry) === undefined),
      ([day, dayMarks]) => this.count(day, dayMarks),
    );
    if (!this.scopeOf)
      await this.models.marks.create({ _id: randomUUID(), day: RELOAD_MARK, at: this.clock() });
    return own.length;
  }

  /** Stores a day's count, then deletes the marks it covers (a crash in between counts it again). */
  private async count(day: string, marks: readonly DayMark[]): Promise<void> {
    await this.store(day, await this.source.count(day), marks);
  }

  private async store(day: string, rows: number, marks: readonly DayMark[]): Promise<void> {
    await this.models.days.replaceOne({ _id: day }, { rows, ...this.scoped(day) }, { upsert: true });
    await this.models.marks.deleteMany({ _id: { $in: marks.map(({ _id }) => _id) } });
  }

  /** Every day of the list (of one `scope` in a scoped list), newest first. */
  async all(scope?: string): Promise<ListedDay[]> {
    const marksReadAt = this.clock().getTime();
    const marks = await this.models.marks
      .find(scope === undefined ? {} : { scope })
      .select({ day: 1 })
      .lean<Array<Pick<DayMark, '_id' | 'day'>>>();
    const dirty = new Set(marks.filter(({ day }) => day !== RELOAD_MARK).map(({ day }) => day));
    const reloads = marks.filter(({ day }) => day === RELOAD_MARK).map(({ _id }) => _id);
    const counted =
      scope === undefined
        ? await this.countsOfAll(dirty, marksReadAt, reloads)
        : (await this.models.days.find({ scope }).lean<CountedDay[]>()).map(
            ({ _id, rows }) => [_id, rows] as const,
          );
    const days = new Map([...counted].map(([day, rows]) => [day, { day, rows, dirty: dirty.has(day) }]));
    for (const day of dirty) if (!days.has(day)) days.set(day, { day, rows: 0, dirty: true });
    return [...days.values()].sort((a, b) => (a.day < b.day ? 1 : -1));
  }

  /**
   * The stored counts of an unscoped list: those read last time, with the days dirty then and clean
   * now read again (by `_id`), or all of them (the first time, after `COUNTS_REUSE_MS` without a
   * read, or after a new `RELOAD_MARK`): a page of five years then reads a few counts, not 1 800.
   */
  private async countsOfAll(
    dirty: ReadonlySet<string>,
    now: number,
    reloads: readonly string[],
  ): Promise<Map<string, number>> {
    const last = this.counts;
    if (!last || reloads.some((id) => !this.reloadsSeen.has(id)) || now - last.at >= COUNTS_REUSE_MS) {
      const counted = await this.models.days.find().lean<CountedDay[]>();
      this.counts = {
        rows: new Map(counted.map(({ _id, rows }) => [_id, rows])),
        dirty: new Set(dirty),
        at: now,
      };
      this.reloadsSeen = new Set(reloads);
      return this.counts.rows;
    }
    const settled = [...last.dirty].filter((day) => !dirty.has(day));
    await inBatches(settled, async (day) => {
      const counted = await this.models.days.findById(day).lean<CountedDay>();
      if (counted) last.rows.set(day, counted.rows);
      else last.rows.delete(day);
    });
    this.counts = { rows: last.rows, dirty: new Set(dirty), at: now };
    return last.rows;
  }

  /** The days from `first` to `last` (both optional, included), newest first, with exact counts. */
  async listing({
    first,
    last,
    keep,
    scope,
  }: { first?: string; last?: string; keep?: (row: T) => boolean; scope?: string } = {}): Promise<
    DayListing<T> | undefined
  > {
    const days = (await this.all(scope)).filter(
      ({ day }) => (!first || day >= first) && (!last || day <= last),
    );
    // The range's end days may be only partly in it (`keep` says which rows are).
    const toLoad = days.filter(({ day, dirty }) => dirty || day === first || day === last);
    if (toLoad.length > MAX_DAYS_LOADED) return undefined;
    const loaded = new Map<string, T[]>();
    await inBatches(toLoad, async ({ day }) => {
      const rows = await this.source.rows(day);
      loaded.set(day, keep ? rows.filter(keep) : rows);
    });
    return { days, loaded };
  }

  /**
   * One page of a listing and its total; the days not loaded yet are read now. `oldestFirst`: the
   * list the other way round (the oldest day first, each day's rows reversed).
   */
  async page(
    listing: DayListing<T>,
    page: number,
    limit: number,
    { oldestFirst = false } = {},
  ): Promise<{ rows: T[]; total: number }> {
    const counts = countsOf(listing);
    const slices = daysOfPage(oldestFirst ? counts.reverse() : counts, (page - 1) * limit, limit);
    const rows = await inBatches(slices, async ({ day, skip, take }) => {
      const ofDay = listing.loaded.get(day) ?? (await this.source.rows(day));
      return (oldestFirst ? [...ofDay].reverse() : ofDay).slice(skip, skip + take);
    });
    return { rows: rows.flat(), total: totalOf(listing) };
  }
}

function groupByDay(marks: readonly DayMark[]): Array<[string, DayMark[]]> {
  const byDay = new Map<string, DayMark[]>();
  for (const mark of marks) byDay.set(mark.day, [...(byDay.get(mark.day) ?? []), mark]);
  return [...byDay];
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
  days: readonly ListedDay[];
  loaded: ReadonlyMap<string, readonly T[]>;
}

const countsOf = <T>({ days, loaded }: DayListing<T>): DayCount[] =>
  days
    .map(({ day, rows }) => ({ day, rows: loaded.get(day)?.length ?? rows }))
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
