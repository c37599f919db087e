import useSWR from 'swr';
import type { StaffList, StaffRole, StaffView } from '@crm/contracts';
import { api } from '@crm/web-kit';

export const STAFF_PATH = '/users/staff';

/** GET /users/staff (ADMIN) — doctors and admins, with their state. */
export const useStaff = (enabled: boolean) =>
  useSWR<StaffList>(enabled ? STAFF_PATH : null, () => api.get<StaffList>(STAFF_PATH));

/** POST /users/staff — invites a doctor or admin by e-mail. */
export const inviteStaff = (body: { name: string; email: string; rol: StaffRole }) =>
  api.post<StaffView>(STAFF_PATH, body);

/** POST /users/staff/:id/disable or /enable — disabling ends the account's sessions at once. */
export const setStaffDisabled = (id: string, disabled: boolean) =>
  api.post<StaffView>(`${STAFF_PATH}/${id}/${disabled ? 'disable' : 'enable'}`);
