import type { RouteHandlers } from '@crm/server-kit';
import type { ReservationService } from '../domain/reservation.service';

/** `GET /rooms`: public, the active consulting rooms. */
export function roomsHandlers(reservations: ReservationService) {
  return {
    'GET /rooms': async (_req, res) => {
      res.json(await reservations.listRooms());
    },
  } satisfies Partial<RouteHandlers<'rooms'>>;
}
