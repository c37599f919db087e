import { api } from '@crm/web-kit';

/** SPEC §6/§9: the kiosk books for one minute from now. */
export const WALK_IN_DELAY_MS = 60_000;

/**
 * `POST /dates/service` (SPEC §7): books the walk-in patient at once. The server accepts any instant
 * from 2 minutes ago to 1 hour ahead and refuses a patient who already has an active appointment.
 */
export function bookWalkIn(pacientId: string, now: number = Date.now()): Promise<unknown> {
  return api.post('/dates/service', { date: new Date(now + WALK_IN_DELAY_MS).toISOString(), pacientId });
}
