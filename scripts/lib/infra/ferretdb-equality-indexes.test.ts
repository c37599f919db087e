import { MongoClient, type Document } from 'mongodb';
import { infrastructure } from '@crm/testing';

/**
 * Equalities on an indexed field use an index, on the test database whatever it is: MongoDB does it
 * itself; FerretDB 1.24 only with the GIN indexes infra-up adds (ferretdb-equality-indexes.sql).
 */
let client: MongoClient;
const database = `equality_indexes_${process.pid}`;

beforeAll(async () => {
  client = await MongoClient.connect((await infrastructure()).mongoUrl);
});

afterAll(async () => {
  await client.db(database).dropDatabase();
  await client.close();
});

/** The server's plan for a find, as text: MongoDB's stages or FerretDB's PostgreSQL plan. */
async function planOf(collection: string, filter: Document): Promise<string> {
  const explained = await client.db(database).command({ explain: { find: collection, filter } });
  return JSON.stringify(explained.queryPlanner);
}

const INDEX_USED = /Index Scan|IXSCAN|IDHACK|EXPRESS_/;
const SCANNED = /Seq Scan|COLLSCAN/;

it('serves equalities on _id and on the first key of an index by an index, and scans for a field without one', async () => {
  const items = client
    .db(database)
    .collection<{ _id: string; patientId: string; at: Date; note: string }>('items');
  await items.createIndex({ patientId: 1, at: -1 });
  await items.insertMany(
    Array.from({ length: 3000 }, (_, i) => ({
      _id: `item-${i}`,
      patientId: `patient-${i % 300}`,
      at: new Date(Date.UTC(2026, 0, 1) + i * 60_000),
      note: `note ${i}`,
    })),
  );

  expect(await planOf('items', { _id: 'item-1234' })).toMatch(INDEX_USED);
  expect(await planOf('items', { patientId: 'patient-42' })).toMatch(INDEX_USED);
  // The same query shape on a field no index starts with: the check above can fail.
  const unindexed = await planOf('items', { note: 'note 42' });
  expect(unindexed).toMatch(SCANNED);
  expect(unindexed).not.toMatch(INDEX_USED);
  // And the answers are the documents asked for.
  expect(await items.findOne({ _id: 'item-1234' })).toMatchObject({ patientId: 'patient-34' });
  expect(await items.countDocuments({ patientId: 'patient-42' })).toBe(10);
});
