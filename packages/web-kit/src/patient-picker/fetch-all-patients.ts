import type { UsersPage, UserView } from '@crm/contracts';
import { api } from '../api/client';

export const FETCH_ALL_LIMIT = 100;

/** Every patient: pages GET /users with limit 100 until totalPages; a failure yields []. */
export async function fetchAllPatients(): Promise<UserView[]> {
  const all: UserView[] = [];
  try {
    for (let page = 1; ; page += 1) {
      const result = await api.get<UsersPage>('/users', { query: { page, limit: FETCH_ALL_LIMIT } });
      all.push(...result.users);
      if (page >= result.totalPages || result.users.length === 0) return all;
    }
  } catch (error) {
    console.warn('GET /users failed', error);
    return [];
  }
}
