import mongoose, { Schema, type Connection, type Model } from 'mongoose';
import { searchKeysOf } from '@crm/contracts';
import { infrastructure, uniqueName } from '@crm/testing';
import { SearchKeysBackfill, searchedPage } from '../src/service/search-keys';

interface Person {
  _id: string;
  name: string;
  email: string;
  phone?: string;
  rol: string;
  searchKeys?: string[];
}

const keysOf = (p: Pick<Person, 'name' | 'email' | 'phone'>) =>
  searchKeysOf({ texts: [p.name, p.email], phone: p.phone });

/** Searches over stored keys, and the backfill of documents written before them (a real database). */
describe('search keys', () => {
  let connection: Connection;
  let People: Model<Person>;
  const people: Person[] = [
    {
      _id: 'maria',
      name: 'María García Núñez',
      email: 'mgarcia@correo.es',
      phone: '34612345678',
      rol: 'PACIENT',
    },
    { _id: 'marta', name: 'Marta Gil', email: 'marta.gil@correo.es', phone: '34699000111', rol: 'PACIENT' },
    { _id: 'garcia', name: 'Dra. Ana García', email: 'ana@centro.es', rol: 'DOCTOR' },
  ];
  /** The ids a search finds (all on one page), and the filters it read with. */
  const reads: Array<Record<string, unknown>> = [];
  const search = async (text: string, own: Record<string, unknown> = {}, page = 1, limit = 10) => {
    const { items, total } = await searchedPage<Person>({
      search: text,
      read: (lookup) => {
        reads.push(lookup);
        return People.find({ ...lookup, ...own }).lean<Person[]>();
      },
      searched: (p) => ({ texts: [p.name, p.email], phone: p.phone }),
      compare: (a, b) => (a._id < b._id ? -1 : 1),
      page,
      limit,
      useKeys: true,
    });
    return { ids: items.map((p) => p._id), total };
  };
  const found = async (text: string, own: Record<string, unknown> = {}) => (await search(text, own)).ids;

  beforeAll(async () => {
    const { mongoUrl } = await infrastructure();
    connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('search_keys') }).asPromise();
    const schema = new Schema<Person>(
      {
        _id: String,
        name: String,
        email: String,
        phone: String,
        rol: String,
        searchKeys: { type: [String], default: undefined },
      },
      { collection: 'people', versionKey: false },
    );
    schema.index({ searchKeys: 1 });
    People = connection.model<Person>('Person', schema);
    await People.createIndexes();
  });

  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('gives keys to the documents without them, a batch at a time, then stops reading', async () => {
    // Written before the keys existed.
    await People.deleteMany({});
    await People.collection.insertMany(people.map((p) => ({ ...p })) as never);
    const backfill = new SearchKeysBackfill<Person>(
      People.collection,
      { name: 1, email: 1, phone: 1 },
      keysOf,
    );
    // A writer that set keys first (a renamed patient) keeps them.
    await People.updateOne(
      { _id: 'marta' },
      { $set: { searchKeys: keysOf({ ...people[1]!, name: 'Marta Gil Ruiz' }) } },
    );
    expect(backfill.complete).toBe(false);
    expect(await backfill.fill(1)).toBe(1);
    expect(await backfill.fill(5)).toBe(1);
    expect(backfill.complete).toBe(false);
    expect(await backfill.fill(5)).toBe(0);
    expect(backfill.complete).toBe(true);
    await People.collection.insertOne({
      _id: 'late',
      name: 'Sin Claves',
      email: 'x@y.es',
      rol: 'PACIENT',
    } as never);
    expect(await backfill.fill(5)).toBe(0);

    const stored = await People.find({ _id: { $in: ['maria', 'marta', 'garcia'] } }).lean();
    const keys = Object.fromEntries(stored.map((p) => [p._id, p.searchKeys]));
    expect(keys.maria).toEqual(keysOf(people[0]!));
    expect(keys.garcia).toEqual(keysOf(people[2]!));
    expect(keys.marta).toContain('rui');
    await People.deleteOne({ _id: 'late' });
  });

  it('finds every word at the start of a word, in any order, and a phone from its start', async () => {
    expect(await found('garcía')).toEqual(['garcia', 'maria']);
    expect(reads.at(-1)).toEqual({ searchKeys: 'garci' });
    expect(await found('GARCIA mar')).toEqual(['maria']);
    expect(await found('mar')).toEqual(['maria', 'marta']);
    expect(await found('marta.gil@correo.es')).toEqual(['marta']);
    expect(await found('+34 612 34')).toEqual(['maria']);
    expect(await found('699 000')).toEqual(['marta']);
    expect(await found('arcia')).toEqual([]);
    // Too short for a key: the whole list is read and checked.
    expect(await found('ma')).toEqual(['maria', 'marta']);
    expect(reads.at(-1)).toEqual({});
    const before = reads.length;
    expect(await search('.*')).toEqual({ ids: [], total: 0 });
    expect(reads).toHaveLength(before);
  });

  it("keeps the list's own conditions, and pages what it found", async () => {
    expect(await found('garcia', { rol: 'DOCTOR' })).toEqual(['garcia']);
    expect(await found('garcia ana', { rol: 'PACIENT' })).toEqual([]);
    expect(await search('mar', {}, 2, 1)).toEqual({ ids: ['marta'], total: 2 });
    expect(await search('mar', {}, 3, 1)).toEqual({ ids: [], total: 2 });
  });
});
