import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** The kiosk books for one minute from now (docs/product/kiosk.md#booking-time). */
export const WALK_IN_DELAY_MS = 60_000;

/**
 * `POST /dates/service {date, pacientId, code}`: books the walk-in patient at once; `code` is the
 * kiosk's proof (403 without a matching one). The server accepts any instant from 2 minutes ago to
 * 1 hour ahead. A patient who already has an active appointment gets a 409 carrying it
 * (`appointment`, read by `heldAppointmentIn`): the kiosk checks them in or offers "be seen now".
 */
export function bookWalkIn(
  pacientId: string,
  code: string,
  now: number = Date.now(),
): Promise<AppointmentView> {
  return api.post<AppointmentView>('/dates/service', {
    date: new Date(now + WALK_IN_DELAY_MS).toISOString(),
    pacientId,
    code,
  });
}
