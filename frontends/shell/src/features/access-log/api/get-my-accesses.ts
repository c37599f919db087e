import useSWR from 'swr';
import type { MyAuditPage } from '@crm/contracts';
import { api } from '@crm/web-kit';

export const MY_ACCESSES_PATH = '/audit/mine';

/** GET /audit/mine?page&limit — the staff's and the kiosk's accesses to the patient's own data, newest first. */
export const getMyAccesses = (page: number, limit: number) =>
  api.get<MyAuditPage>(MY_ACCESSES_PATH, { query: { page, limit } });

export const useMyAccesses = (page: number, limit: number) =>
  useSWR([MY_ACCESSES_PATH, page, limit], () => getMyAccesses(page, limit), {
    keepPreviousData: true,
    revalidateOnFocus: false,
  });
