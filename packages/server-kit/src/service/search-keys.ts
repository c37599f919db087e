import { searchTermsOf } from '@crm/contracts';
import type { mongo } from 'mongoose';
import { UPDATES_PER_COMMAND } from './mongo';

/**
 * The filter of a search over documents that store `searchKeys` (`searchKeysOf` of
 * @crm/contracts), with the list's own `clauses`. A text with nothing to look for (".*") finds
 * nothing.
 *
 * The longest term is a top-level equality: FerretDB hands only those to PostgreSQL, where an
 * index serves it (README, "MongoDB and FerretDB"), and on MongoDB it is an index lookup too.
 * The other terms are checked on what that lookup found.
 */
export function searchFilterOf(
  search: string,
  clauses: Record<string, unknown>[] = [],
): Record<string, unknown> {
  const terms = searchTermsOf(search);
  // No document has an empty key: nothing, found through the index.
  if (terms.length === 0) return { searchKeys: '' };
  const longest = terms.reduce((a, b) => (b.length > a.length ? b : a));
  const rest = terms.length > 1 ? [{ searchKeys: { $all: terms } }] : [];
  const all = [...clauses, ...rest];
  return all.length ? { searchKeys: longest, $and: all } : { searchKeys: longest };
}

/**
 * Gives `searchKeys` to the documents of `collection` written before the field existed, `limit` at a
 * time (a task calls `fill` until it answers 0). Searches read the keys once `complete`; until then
 * they match the texts themselves. Each call reads the documents without keys: a scan on FerretDB,
 * an index lookup on MongoDB; once complete, a call costs nothing.
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
