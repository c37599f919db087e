import { useState } from 'react';
import type { ServerPagination } from './DataTable';

/**
 * The page of a list the server pages: page 1 again whenever `query` (the search, filters and page
 * size, as one string) changes, so a new search never asks for a page it does not have. Returns the
 * page to request and `server(answer)`, the DataTable's `server` prop for the answer's paging.
 */
export function useServerPages(query: string) {
  const [paging, setPaging] = useState({ page: 1, for: '' });
  const page = paging.for === query ? paging.page : 1;
  const server = (answer?: {
    totalPages: number;
    total: number;
    totalIsEstimate?: boolean;
  }): ServerPagination => ({
    page,
    totalPages: answer?.totalPages ?? 1,
    total: answer?.total ?? 0,
    totalIsEstimate: answer?.totalIsEstimate === true,
    onPageChange: (next) => setPaging({ page: next, for: query }),
  });
  return { page, server };
}
