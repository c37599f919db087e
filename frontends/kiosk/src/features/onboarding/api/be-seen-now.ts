import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/**
 * `POST /dates/service/now {pacientId, code}` — "be seen now": in one step on the server, ends the
 * patient's future appointment (cancelled, by the kiosk) and books a walk-in for now + 60 s, never
 * leaving two active appointments or none. The walk-in has a booking code of its own (the old one
 * dies with its appointment). 409 with `appointment` when the appointment can be checked in now
 * instead (or already is).
 */
export function beSeenNow(pacientId: string, code: string): Promise<AppointmentView> {
  return api.post<AppointmentView>('/dates/service/now', { pacientId, code });
}
