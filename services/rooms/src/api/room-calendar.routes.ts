import { Router, type RequestHandler } from 'express';
import { reservationIdParam, reservedDatesQuery, reserveRoomBody } from '@crm/contracts';
import { callerOf, requireRole, validate, validated } from '@crm/server-kit';
import type { ReservationService } from '../domain/reservation.service';

/**
 * `/room-calendar*`: back-office calls only (DOCTOR, ADMIN). The old front end reserved without a
 * token; here every call needs one, and the doctor of a reservation is the caller (see README).
 */
export function roomCalendarRoutes(reservations: ReservationService, requireUser: RequestHandler): Router {
  const router = Router();
  const staff = [requireUser, requireRole('DOCTOR', 'ADMIN')];

  router.get(
    '/room-calendar/reserved-dates',
    ...staff,
    validate('query', reservedDatesQuery),
    async (_req, res) => {
      res.json(await reservations.reservedDates(validated(res, 'query', reservedDatesQuery).room));
    },
  );

  router.get('/room-calendar/mine', ...staff, async (req, res) => {
    res.json(await reservations.mine(callerOf(req)));
  });

  router.post('/room-calendar', ...staff, validate('body', reserveRoomBody), async (req, res) => {
    res.status(201).json(await reservations.reserve(callerOf(req), validated(res, 'body', reserveRoomBody)));
  });

  router.delete('/room-calendar/:id', ...staff, validate('params', reservationIdParam), async (req, res) => {
    const released = await reservations.release(
      callerOf(req),
      validated(res, 'params', reservationIdParam).id,
    );
    res.json({ message: 'Reserva cancelada', ...released });
  });

  return router;
}
