/** The paging part of every list answer (`GET /users`, `/dates`, `/records`, `/audit`, …). */
export interface Paged {
  total: number;
  page: number;
  totalPages: number;
  limit: number;
  /**
   * Present (true) when `total` is an estimate: an unfiltered list of a large collection is not
   * counted on every request (the service README says where its figure comes from). The back office
   * shows "aprox." next to it.
   */
  totalIsEstimate?: true;
}

/** The paging of page `page` of `limit` items out of `total` (an empty list still has one page). */
export const paged = (total: number, page: number, limit: number, estimate = false): Paged => ({
  total,
  page,
  limit,
  totalPages: Math.max(1, Math.ceil(total / limit)),
  ...(estimate ? { totalIsEstimate: true as const } : {}),
});
