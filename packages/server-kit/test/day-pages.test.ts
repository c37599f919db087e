import mongoose, { type Connection } from 'mongoose';
import { infrastructure, uniqueName } from '@crm/testing';
import {
  DayPages,
  dayPagesModels,
  daysOfPage,
  LOAD_HOLD_MS,
  MARK_REUSE_MS,
  MARK_SETTLE_MS,
  MAX_DAYS_LOADED,
  totalOf,
  type DayPagesModels,
} from '../src/service/day-pages';

/** The page arithmetic of lists paged a day at a time (DayPages; used by the trail and the records). */
it('finds the days of a page from their counts alone', () => {
  const days = [
    { day: '2025-07-17', rows: 4 },
    { day: '2025-07-15', rows: 10 },
    { day: '2025-07-14', rows: 3 },
  ];
  expect(daysOfPage(days, 0, 5)).toEqual([
    { day: '2025-07-17', skip: 0, take: 4 },
    { day: '2025-07-15', skip: 0, take: 1 },
  ]);
  expect(daysOfPage(days, 10, 5)).toEqual([
    { day: '2025-07-15', skip: 6, take: 4 },
    { day: '2025-07-14', skip: 0, take: 1 },
  ]);
  expect(daysOfPage(days, 15, 5)).toEqual([{ day: '2025-07-14', skip: 1, take: 2 }]);
  expect(daysOfPage(days, 17, 5)).toEqual([]);
});

describe('day counts and their marks (a real database)', () => {
  let connection: Connection;
  let models: DayPagesModels;
  /** The list: rows per day, as the source counts them. */
  const rows = new Map<string, number>();
  let now = new Date('2026-03-02T10:00:00Z');
  const pagesOf = () =>
    new DayPages(
      models,
      {
        count: async (day) => rows.get(day) ?? 0,
        rows: async (day) => Array.from({ length: rows.get(day) ?? 0 }, (_, i) => `${day}#${i}`),
      },
      () => now,
    );
  const later = (ms: number) => (now = new Date(now.getTime() + ms));

  beforeAll(async () => {
    const { mongoUrl } = await infrastructure();
    connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('day_pages') }).asPromise();
    models = dayPagesModels(connection, 'ListDay', 'list_days');
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('a mark covers its writer’s writes to that day for a minute: one insert, not one per write', async () => {
    const pages = pagesOf();
    await pages.marked(['2026-03-02']);
    later(30_000);
    await pages.marked(['2026-03-02', undefined]);
    expect(await models.marks.countDocuments({ day: '2026-03-02' })).toBe(1);
    later(MARK_REUSE_MS);
    await pages.marked(['2026-03-02']);
    expect(await models.marks.countDocuments({ day: '2026-03-02' })).toBe(2);
    // Another process does not use this one's marks.
    await pagesOf().marked(['2026-03-02']);
    expect(await models.marks.countDocuments({ day: '2026-03-02' })).toBe(3);
  });

  it('the background count waits until every mark of a day is five minutes old; a younger one keeps it dirty', async () => {
    const pages = pagesOf();
    rows.set('2026-03-02', 7);
    expect((await pages.all()).find(({ day }) => day === '2026-03-02')).toEqual({
      day: '2026-03-02',
      rows: 0,
      dirty: true,
    });
    later(MARK_SETTLE_MS - MARK_REUSE_MS - 1);
    // The two oldest marks are five minutes old, the third is not.
    expect(await pages.settle()).toBe(1);
    expect(await models.days.findById('2026-03-02').lean()).toMatchObject({ rows: 7 });
    expect(await models.marks.countDocuments({ day: '2026-03-02' })).toBe(2);
    expect((await pages.all()).find(({ day }) => day === '2026-03-02')).toMatchObject({ dirty: true });
    later(MARK_REUSE_MS + 1);
    rows.set('2026-03-02', 9);
    expect(await pages.settle()).toBe(1);
    expect(await pages.all()).toEqual([{ day: '2026-03-02', rows: 9, dirty: false }]);
    expect(await pages.settle()).toBe(0);
  });

  it('a bulk load retires its own marks at once, never another writer’s', async () => {
    const load = pagesOf();
    const other = pagesOf();
    await load.marked(['2026-03-03', '2026-03-04']);
    await other.marked(['2026-03-04']);
    rows.set('2026-03-03', 2);
    rows.set('2026-03-04', 5);
    expect(await load.settleOwn()).toBe(2);
    expect(await load.all()).toEqual([
      { day: '2026-03-04', rows: 5, dirty: true },
      { day: '2026-03-03', rows: 2, dirty: false },
      { day: '2026-03-02', rows: 9, dirty: false },
    ]);
  });

  it('a bulk load that says what it added: a day never counted and marked by nobody else takes its word', async () => {
    const load = pagesOf();
    const other = pagesOf();
    rows.set('2026-04-01', 3);
    rows.set('2026-04-02', 4);
    rows.set('2026-03-02', 12);
    await load.marked(['2026-04-01', '2026-04-02', '2026-03-02']);
    await other.marked(['2026-04-02']);
    const added = new Map([
      ['2026-04-01', 30],
      ['2026-04-02', 40],
      ['2026-03-02', 50],
    ]);
    expect(await load.settleOwn(added)).toBe(3);
    const days = await load.all();
    // Its word (30, not the 3 a count would find); counted where someone else wrote or a count was stored.
    expect(days.find(({ day }) => day === '2026-04-01')).toEqual({
      day: '2026-04-01',
      rows: 30,
      dirty: false,
    });
    expect(days.find(({ day }) => day === '2026-04-02')).toEqual({ day: '2026-04-02', rows: 4, dirty: true });
    expect(days.find(({ day }) => day === '2026-03-02')).toEqual({
      day: '2026-03-02',
      rows: 12,
      dirty: false,
    });
    await other.settleOwn();
    rows.set('2026-03-02', 9);
    await models.days.deleteMany({ _id: { $in: ['2026-04-01', '2026-04-02'] } });
    const recount = pagesOf();
    await recount.marked(['2026-03-02']);
    await recount.settleOwn();
  });

  it('pages: a dirty day is loaded and counted by the read, the others by their stored count', async () => {
    const pages = pagesOf();
    rows.set('2026-03-04', 6);
    const listing = (await pages.listing())!;
    expect(listing.days.map(({ day }) => day)).toEqual(['2026-03-04', '2026-03-03', '2026-03-02']);
    expect([...listing.loaded.keys()]).toEqual(['2026-03-04']);
    expect(totalOf(listing)).toBe(17);
    expect(await pages.page(listing, 2, 5)).toEqual({
      rows: ['2026-03-04#5', '2026-03-03#0', '2026-03-03#1', '2026-03-02#0', '2026-03-02#1'],
      total: 17,
    });
    expect(await pages.page(listing, 4, 5)).toEqual({ rows: ['2026-03-02#7', '2026-03-02#8'], total: 17 });
    expect((await pages.page(listing, 5, 5)).rows).toEqual([]);
    // The other way round: the oldest day first, its rows reversed.
    expect(await pages.page(listing, 2, 5, { oldestFirst: true })).toEqual({
      rows: ['2026-03-02#3', '2026-03-02#2', '2026-03-02#1', '2026-03-02#0', '2026-03-03#1'],
      total: 17,
    });
    expect((await pages.page(listing, 4, 5, { oldestFirst: true })).rows).toEqual([
      '2026-03-04#1',
      '2026-03-04#0',
    ]);
  });

  it('more dirty days than a read may load: no listing (the caller reads its sorted index)', async () => {
    const pages = pagesOf();
    const days = Array.from({ length: MAX_DAYS_LOADED + 1 }, (_, i) =>
      new Date(Date.UTC(2025, 0, 1 + i)).toISOString().slice(0, 10),
    );
    await pages.marked(days);
    expect(await pages.listing()).toBeUndefined();
    expect(await pages.listing({ first: days[1], last: days.at(-1) })).toBeDefined();
    await pages.settleOwn();
    expect(await pages.listing()).toBeDefined();
  });

  it('a bulk load’s days wait for its own count however long it writes; an hour on, if it died, the pass counts them', async () => {
    const counted = async (day: string) => (await models.days.findById(day).lean())?.rows;
    const load = pagesOf().bulkLoad();
    await load.marked(['2027-01-04']);
    rows.set('2027-01-04', 3);
    later(MARK_SETTLE_MS * 2);
    // Still writing ten minutes on: its mark still covers it, and the background leaves the day.
    await load.marked(['2027-01-04']);
    expect(await models.marks.countDocuments({ day: '2027-01-04' })).toBe(1);
    await pagesOf().settle();
    expect(await counted('2027-01-04')).toBeUndefined();
    await load.settleOwn(new Map([['2027-01-04', 3]]));
    expect(await counted('2027-01-04')).toBe(3);
    expect(await models.marks.countDocuments({ day: '2027-01-04' })).toBe(0);

    const died = pagesOf().bulkLoad();
    await died.marked(['2027-01-05']);
    rows.set('2027-01-05', 4);
    later(MARK_SETTLE_MS);
    await pagesOf().settle();
    expect(await counted('2027-01-05')).toBeUndefined();
    later(LOAD_HOLD_MS);
    await pagesOf().settle();
    expect(await counted('2027-01-05')).toBe(4);
    // The same instance marks as any writer once its load is settled.
    await load.marked(['2027-01-06']);
    expect(await models.marks.findOne({ day: '2027-01-06' }).lean()).toMatchObject({ at: now });
  });

  it('a reader keeps the counts it read: it reads again the days it saw dirty and sees clean, and all of them after 2.5 minutes without a read or after a bulk load', async () => {
    const cached = dayPagesModels(connection, 'CachedDay', 'cached_days');
    const source = {
      count: async (day: string) => rows.get(day) ?? 0,
      rows: async (day: string) => Array.from({ length: rows.get(day) ?? 0 }, (_, i) => `${day}#${i}`),
    };
    const reader = new DayPages(cached, source, () => now);
    const writer = () => new DayPages(cached, source, () => now);
    const seen = async () => Object.fromEntries((await reader.all()).map(({ day, rows: n }) => [day, n]));
    rows.set('2028-05-02', 3);
    rows.set('2028-05-03', 1);
    await writer().marked(['2028-05-02', '2028-05-03']);
    later(MARK_SETTLE_MS);
    await writer().settle();
    expect(await seen()).toEqual({ '2028-05-02': 3, '2028-05-03': 1 });

    // Another process writes to a day and counts it five minutes on; the reader reads every minute.
    await writer().marked(['2028-05-02']);
    rows.set('2028-05-02', 5);
    for (let minute = 0; minute < 6; minute++) {
      later(60_000);
      expect((await reader.all()).find(({ day }) => day === '2028-05-02')).toMatchObject({ dirty: true });
    }
    expect(await writer().settle()).toBe(1);
    later(60_000);
    expect(await seen()).toEqual({ '2028-05-02': 5, '2028-05-03': 1 });

    // A count changed without a mark (never done): unseen by the reader while it reads often, which
    // shows it does not read the counts again; read after 2.5 minutes without a read.
    await cached.days.updateOne({ _id: '2028-05-03' }, { rows: 7 });
    later(60_000);
    expect(await seen()).toEqual({ '2028-05-02': 5, '2028-05-03': 1 });
    later(MARK_SETTLE_MS / 2);
    expect(await seen()).toEqual({ '2028-05-02': 5, '2028-05-03': 7 });

    // A bulk load's own count (no five-minute wait) leaves a mark that makes the reader read them all, once.
    const load = writer().bulkLoad();
    await load.marked(['2028-05-04']);
    rows.set('2028-05-04', 2);
    await load.settleOwn(new Map([['2028-05-04', 2]]));
    later(1000);
    expect(await seen()).toEqual({ '2028-05-02': 5, '2028-05-03': 7, '2028-05-04': 2 });
    expect(await cached.marks.countDocuments({ day: '*' })).toBe(1);
    // The background pass deletes that mark once settled, and counts nothing for it.
    later(MARK_SETTLE_MS);
    expect(await writer().settle()).toBe(0);
    expect(await cached.marks.countDocuments()).toBe(0);
  });
});
