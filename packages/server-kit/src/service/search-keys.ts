import { searchQueryOf, type Searched } from '@crm/contracts';
import type { mongo } from 'mongoose';
import { UPDATES_PER_COMMAND } from './mongo';

/**
 * One page of a search over documents that store `searchKeys` (`searchKeysOf` of
 * @crm/contracts), and its exact total. `read` gets the equality to add to the list's own filter:
 * one stored key of the text (an index lookup on MongoDB, and on FerretDB, which hands top-level
 * equalities to PostgreSQL); what it finds is checked, sorted and paged here, so FerretDB decodes
 * the documents once (a count and a sorted page would each decode them all). Without `useKeys`
 * (older documents not keyed yet) or a text too short to have a key, `read` gets no equality.
 */
export async function searchedPage<T>({
  search,
  read,
  searched,
  compare,
  page,
  limit,
  useKeys,
}: {
  search: string;
  read: (lookup: { searchKeys?: string }) => PromiseLike<T[]>;
  searched: (doc: T) => Searched;
  compare: (a: T, b: T) => number;
  page: number;
  limit: number;
  useKeys: boolean;
}): Promise<{ items: T[]; total: number }> {
  const query = searchQueryOf(search);
  if (query.empty) return { items: [], total: 0 };
  const docs = await read(useKeys && query.lookup ? { searchKeys: query.lookup } : {});
  const found = docs.filter((doc) => query.matches(searched(doc))).sort(compare);
  return { items: found.slice((page - 1) * limit, page * limit), total: found.length };
}

/**
 * Gives `searchKeys` to the documents of `collection` written before the field existed, `limit` at
 * a time (a task calls `fill` until it answers 0). Searches use the keys once `complete`; until then
 * they read the whole list. Each call reads the documents without keys: a scan on FerretDB, an
 * index lookup on MongoDB; once complete, a call costs nothing.
 */
export class SearchKeysBackfill<T> {
  private everyDocumentHasKeys = false;

  constructor(
    private readonly collection: mongo.Collection,
    /** The fields `keysOf` reads. */
    private readonly select: Record<string, 1>,
    private readonly keysOf: (doc: T) => string[],
  ) {}

  get complete(): boolean {
    return this.everyDocumentHasKeys;
  }

  async fill(limit = 2_000): Promise<number> {
    if (this.everyDocumentHasKeys) return 0;
    const missing = (await this.collection
      .find({ searchKeys: { $exists: false } }, { projection: this.select, limit })
      .toArray()) as Array<T & { _id: mongo.ObjectId }>;
    if (missing.length === 0) {
      this.everyDocumentHasKeys = true;
      return 0;
    }
    for (let i = 0; i < missing.length; i += UPDATES_PER_COMMAND)
      await this.collection.bulkWrite(
        missing.slice(i, i + UPDATES_PER_COMMAND).map((doc) => ({
          updateOne: {
            // A writer that set keys meanwhile (a changed name) wrote newer ones.
            filter: { _id: doc._id, searchKeys: { $exists: false } },
            update: { $set: { searchKeys: this.keysOf(doc) } },
          },
        })),
        { ordered: false },
      );
    return missing.length;
  }
}
