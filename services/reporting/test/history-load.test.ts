import mongoose, { type Connection } from 'mongoose';
import { syncIndexes } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { MongoFactStore } from '../src/data/facts.repository';
import { reportingModels } from '../src/data/reporting.models';
import { appointmentFact } from '../src/domain/facts';

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
  // The feed's own facts are stored when they arrive.
  await store.put(booked('2026-12-01T09:00:00.000Z', '2022-01-01T00:00:00.000Z'));
  expect(await store.daysStoredSince(loadedAt)).toEqual(['2026-12-01']);
});
