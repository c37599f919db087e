import type { SortOrder } from 'mongoose';

/** How to read one page: `skip` and `limit` in the list's order, or (`reverse`) from its end. */
export interface PageWindow {
  skip: number;
  limit: number;
  reverse: boolean;
}

/**
 * Where page `page` of `limit` items lies in a list of `total`, read from whichever end is nearer:
 * even with an index the server walks every skipped entry, so the last pages are read backwards
 * (reversed sort, skipping only what follows them) and no page costs more than half the list.
 * `undefined` when the page is past the end: nothing to read.
 *
 * The sort must be a total order (end with `_id`) so that reading backwards gives the same rows.
 */
export function pageWindow(total: number, page: number, limit: number): PageWindow | undefined {
  const start = (page - 1) * limit;
  if (start >= total) return undefined;
  const end = Math.min(start + limit, total);
  if (start <= total - end) return { skip: start, limit, reverse: false };
  return { skip: total - end, limit: end - start, reverse: true };
}

/** The same keys, each in the other direction. */
export function reversedSort<T extends Record<string, SortOrder>>(sort: T): Record<keyof T, 1 | -1> {
  return Object.fromEntries(
    Object.entries(sort).map(([key, order]) => [
      key,
      order === -1 || order === 'desc' || order === 'descending' ? 1 : -1,
    ]),
  ) as Record<keyof T, 1 | -1>;
}

/** A query that can be sorted, skipped and limited (a mongoose `find`, before `.lean()`). */
interface Pageable<R> {
  sort(sort: Record<string, 1 | -1>): Pageable<R>;
  skip(n: number): Pageable<R>;
  limit(n: number): Pageable<R>;
  lean<T>(): PromiseLike<T>;
}

/**
 * One page of `find(filter)` in `sort` order, read through `pageWindow`: `find` builds the query,
 * the window decides from which end it is read. Items always come back in `sort` order.
 *
 * `total` must be the list's current size to read from the end. A figure that may lag behind (a
 * count reused for a while) passes `fromEnd: false`: the page is then read forwards and past the
 * figure too, so no row is left out of every page while the figure is behind.
 */
export async function readPage<T>(
  find: () => Pageable<unknown>,
  sort: Record<string, 1 | -1>,
  total: number,
  page: number,
  limit: number,
  { fromEnd = true }: { fromEnd?: boolean } = {},
): Promise<T[]> {
  const window = fromEnd
    ? pageWindow(total, page, limit)
    : { skip: (page - 1) * limit, limit, reverse: false };
  if (!window) return [];
  const docs = await find()
    .sort(window.reverse ? reversedSort(sort) : sort)
    .skip(window.skip)
    .limit(window.limit)
    .lean<T[]>();
  return window.reverse ? docs.reverse() : docs;
}
