import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** The kiosk books for one minute from now (docs/product/kiosk.md#booking-time). */
export const WALK_IN_DELAY_MS = 60_000;

/**
 * `POST /dates/service`: books the walk-in patient at once. The server accepts any instant
 * from 2 minutes ago to 1 hour ahead. A patient who already has an active appointment gets a 409
 * carrying it (`appointment`, read by `heldAppointmentOf`): the kiosk checks them in or offers
 * "be seen now" instead.
 */
export function bookWalkIn(pacientId: string, now: number = Date.now()): Promise<AppointmentView> {
  return api.post<AppointmentView>('/dates/service', {
    date: new Date(now + WALK_IN_DELAY_MS).toISOString(),
    pacientId,
  });
}
