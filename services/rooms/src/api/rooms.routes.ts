import { Router } from 'express';
import type { ReservationService } from '../domain/reservation.service';

/** `GET /rooms`: public (SPEC §7), the active consulting rooms. */
export function roomsRoutes(reservations: ReservationService): Router {
  const router = Router();
  router.get('/rooms', async (_req, res) => {
    res.json(await reservations.listRooms());
  });
  return router;
}
