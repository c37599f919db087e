/** The paging part of every list answer (`GET /users`, `/dates`, `/records`, `/audit`, …). */
export interface Paged {
  total: number;
  page: number;
  totalPages: number;
  limit: number;
}

/** The paging of page `page` of `limit` items out of `total` (an empty list still has one page). */
export const paged = (total: number, page: number, limit: number): Paged => ({
  total,
  page,
  limit,
  totalPages: Math.max(1, Math.ceil(total / limit)),
});
