import mongoose, { Schema, type Connection } from 'mongoose';
import { infrastructure, uniqueName } from '@crm/testing';
import { pageWindow, readPage, retireIndexes, syncIndexes } from '../src/service';

let connection: Connection;

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('paging') }).asPromise();
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

describe('pageWindow', () => {
  it('reads the first half forwards, the second half backwards, nothing past the end', () => {
    expect(pageWindow(23, 1, 5)).toEqual({ skip: 0, limit: 5, reverse: false });
    expect(pageWindow(23, 2, 5)).toEqual({ skip: 5, limit: 5, reverse: false });
    // Rows 15..19: 3 rows after them, fewer than the 15 before.
    expect(pageWindow(23, 4, 5)).toEqual({ skip: 3, limit: 5, reverse: true });
    // The last page holds 3 rows, nothing after them.
    expect(pageWindow(23, 5, 5)).toEqual({ skip: 0, limit: 3, reverse: true });
    expect(pageWindow(23, 6, 5)).toBeUndefined();
    expect(pageWindow(0, 1, 5)).toBeUndefined();
  });
});

describe('readPage on the database', () => {
  const Row = () =>
    connection.models.PagedRow ??
    connection.model('PagedRow', new Schema({ _id: String, n: Number }, { collection: 'paged_rows' }));

  beforeAll(async () => {
    // 23 rows with ties on `n` (two per value): only `_id` orders them.
    await Row().insertMany(
      Array.from({ length: 23 }, (_, i) => ({ _id: `r${String(i).padStart(2, '0')}`, n: Math.floor(i / 2) })),
    );
  });

  const ids = (docs: Array<{ _id: unknown }>) => docs.map((d) => String(d._id));

  it.each([
    ['ascending', { n: 1, _id: 1 } as const],
    ['descending', { n: -1, _id: -1 } as const],
  ])('gives every page exactly the rows of a plain skip (%s)', async (_name, sort) => {
    const all = ids(await Row().find().sort(sort).lean());
    expect(all).toHaveLength(23);
    for (const page of [1, 2, 3, 4, 5]) {
      const got = ids(await readPage<{ _id: unknown }>(() => Row().find(), sort, 23, page, 5));
      expect(got).toEqual(all.slice((page - 1) * 5, page * 5));
    }
    expect(await readPage(() => Row().find(), sort, 23, 6, 5)).toEqual([]);
    expect(await readPage(() => Row().find(), sort, 23, 1000, 5)).toEqual([]);
  });

  it('with a total that may lag behind, reads forwards and past it', async () => {
    const all = ids(await Row().find().sort({ n: 1, _id: 1 }).lean());
    const got = ids(
      await readPage<{ _id: unknown }>(() => Row().find(), { n: 1, _id: 1 }, 20, 5, 5, { fromEnd: false }),
    );
    expect(got).toEqual(all.slice(20, 25));
  });
});

describe('syncIndexes', () => {
  it('creates the declared indexes and drops the retired ones, again and again', async () => {
    const schema = new Schema({ a: String, b: String }, { collection: 'retiring' });
    schema.index({ b: 1, _id: 1 });
    retireIndexes(schema, ['a_1', 'never_existed_1']);
    const model = connection.model('Retiring', schema);
    await model.createCollection();
    await model.collection.createIndex({ a: 1 });
    // Not the schema's and not retired (like the outbox relay's): left alone.
    await model.collection.createIndex({ c: 1 }, { sparse: true });

    await syncIndexes(connection);
    await syncIndexes(connection);
    const names = (await model.collection.indexes()).map((index) => index.name);
    expect(names).toContain('b_1__id_1');
    expect(names).toContain('c_1');
    expect(names).not.toContain('a_1');
  });
});
