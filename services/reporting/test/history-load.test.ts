import mongoose, { type Connection } from 'mongoose';
import { syncIndexes } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { MongoFactStore } from '../src/data/facts.repository';
import { reportingModels } from '../src/data/reporting.models';
import { appointmentFact, moneyFact, recordFact } from '../src/domain/facts';

/**
 * A history loaded in bulk (`putMany`, bench:growth) is stored as the feed would have stored it, fact
 * by fact when it occurred: a reconciliation that starts after it takes only what is newer, not
 * every day of five years again.
 */
let connection: Connection;
let store: MongoFactStore;

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('reporting_history') })
    .asPromise();
  await syncIndexes(connection);
  store = new MongoFactStore(reportingModels(connection));
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const booked = (date: string, bookedAt: string) =>
  appointmentFact('booked', { id: uniqueId(), date, channel: 'patient' }, bookedAt, 24);

it('stores a loaded history when it happened, so a reconciliation after it leaves the old days alone', async () => {
  const loadedAt = new Date();
  await store.putMany([
    booked('2022-03-14T09:00:00.000Z', '2022-03-01T10:00:00.000Z'),
    booked('2023-06-05T09:15:00.000Z', '2023-05-20T10:00:00.000Z'),
  ]);
  expect(await store.daysStoredSince(new Date(loadedAt.getTime() - 60_000))).toEqual([]);
  expect((await store.daysStoredSince(new Date('2023-01-01T00:00:00.000Z'))).sort()).toEqual(['2023-06-05']);
  // A short span is read a UTC day of storing at a time: the fact stored on 2023-05-20 at 10:00.
  const may = (day: number, time: string) => new Date(`2023-05-${day}T${time}.000Z`);
  expect(await store.daysStoredSince(may(19, '12:00:00'), may(21, '00:00:00'))).toEqual(['2023-06-05']);
  expect(await store.daysStoredSince(may(20, '10:00:01'), may(21, '00:00:00'))).toEqual([]);
  expect(await store.daysStoredSince(may(18, '00:00:00'), may(19, '23:59:59'))).toEqual([]);
  // The feed's own facts are stored when they arrive.
  await store.put(booked('2026-12-01T09:00:00.000Z', '2022-01-01T00:00:00.000Z'));
  expect(await store.daysStoredSince(loadedAt)).toEqual(['2026-12-01']);
});

it('loads a history with the day totals a recomputation of its days reads back from the facts', async () => {
  const [paid, cancelled, noShow, attended] = [uniqueId(), uniqueId(), uniqueId(), uniqueId()];
  const at = (id: string, date: string) => ({ id, date, channel: 'patient' as const });
  const billing = (id: string, date: string) =>
    recordFact(
      {
        id,
        dateId: id,
        billing: { gross: 54, currency: 'EUR', certificateType: 'Armas', appointmentDate: date },
      },
      '2021-02-01T12:00:00.000Z',
    )!;
  const history = [
    appointmentFact('booked', at(paid, '2021-02-01T09:00:00.000Z'), '2021-01-20T10:00:00.000Z', 24, 1900),
    appointmentFact(
      'booked',
      at(cancelled, '2021-02-01T09:15:00.000Z'),
      '2021-01-20T10:00:00.000Z',
      24,
      1900,
    ),
    appointmentFact('cancelled', at(cancelled, '2021-02-01T09:15:00.000Z'), '2021-01-25T10:00:00.000Z', 24),
    appointmentFact('booked', at(noShow, '2021-02-02T09:00:00.000Z'), '2021-01-20T10:00:00.000Z', 24, 1900),
    appointmentFact('noShow', at(noShow, '2021-02-02T09:00:00.000Z'), '2021-02-02T09:15:00.000Z', 24),
    billing(noShow, '2021-02-02T09:00:00.000Z'),
    appointmentFact('booked', at(attended, '2021-02-02T09:30:00.000Z'), '2021-01-20T10:00:00.000Z', 24, 1900),
    appointmentFact('attended', at(attended, '2021-02-02T09:30:00.000Z'), '2021-02-02T09:45:00.000Z', 24),
    billing(attended, '2021-02-02T09:30:00.000Z'),
    moneyFact(
      'taken',
      { paymentId: uniqueId(), appointmentId: paid, method: 'card', currency: 'EUR', amountCents: 1500 },
      '2021-01-20T10:01:00.000Z',
      '2021-01-20T10:01:00.000Z',
      '2021-02-01',
    ),
  ];
  const february = async () =>
    (await store.totals('2021-01-01', '2021-02-28')).sort((a, b) => a.day.localeCompare(b.day));
  await store.loadHistory(history, 1900);
  const loaded = await february();
  expect(
    loaded.map(({ day, booked, cancelled: c, noShow: n, revenue, records, pendingCents, money }) => ({
      day,
      booked,
      c,
      n,
      revenue,
      records,
      pendingCents,
      money,
    })),
  ).toEqual([
    {
      day: '2021-01-20',
      booked: 0,
      c: 0,
      n: 0,
      revenue: 0,
      records: 0,
      pendingCents: 0,
      money: [{ currency: 'EUR', flow: 'taken', method: 'card', cents: 1500 }],
    },
    // The paid appointment still owes 4 €; the cancelled one nothing.
    { day: '2021-02-01', booked: 2, c: 1, n: 0, revenue: 0, records: 0, pendingCents: 400, money: [] },
    // The no-show's record bills nobody; the attended one owes its price (nothing paid).
    { day: '2021-02-02', booked: 2, c: 0, n: 1, revenue: 54, records: 1, pendingCents: 1900, money: [] },
  ]);
  expect(loaded.find((d) => d.day === '2021-02-02')?.revenueByCertificate).toEqual({ Armas: 54 });

  await store.recompute(
    loaded.map((d) => d.day),
    1900,
  );
  expect(await february()).toEqual(loaded);
});
