import type { Role } from '@crm/contracts';

/** Where each role lands after signing in (docs/product/rights-and-access-trail.md#roles). */
export const HOME_BY_ROLE: Record<Role, string> = {
  PACIENT: '/user',
  DOCTOR: '/doctor/appointments',
  ADMIN: '/doctor/appointments',
  SERVICE_ACCOUNT: '/onboarding',
};

export const homeForRole = (rol: string | undefined | null): string =>
  (rol && HOME_BY_ROLE[rol as Role]) || '/';

export const isStaff = (rol: string | undefined | null): boolean => rol === 'DOCTOR' || rol === 'ADMIN';
