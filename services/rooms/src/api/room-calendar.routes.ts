import {
  reservationIdParam,
  reservedDatesQuery,
  reserveRoomBody,
  roomReservationsQuery,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { ReservationService } from '../domain/reservation.service';

/**
 * `/room-calendar*`: back-office calls only (DOCTOR, ADMIN, from the route table). The old front end
 * reserved without a token; here every call needs one, and the doctor of a reservation is the
 * caller (see README).
 */
export function roomCalendarHandlers(reservations: ReservationService) {
  return {
    'GET /room-calendar/reserved-dates': [
      validate('query', reservedDatesQuery),
      async (_req, res) => {
        res.json(await reservations.reservedDates(validated(res, 'query', reservedDatesQuery).room));
      },
    ],
    'GET /room-calendar/reservations': [
      validate('query', roomReservationsQuery),
      async (_req, res) => {
        res.json(await reservations.forRoom(validated(res, 'query', roomReservationsQuery).room));
      },
    ],
    'GET /room-calendar/mine': async (req, res) => {
      res.json(await reservations.mine(callerOf(req)));
    },
    'POST /room-calendar': [
      validate('body', reserveRoomBody),
      async (req, res) => {
        res
          .status(201)
          .json(await reservations.reserve(callerOf(req), validated(res, 'body', reserveRoomBody)));
      },
    ],
    'DELETE /room-calendar/:id': [
      validate('params', reservationIdParam),
      async (req, res) => {
        const released = await reservations.release(
          callerOf(req),
          validated(res, 'params', reservationIdParam).id,
        );
        res.json({ message: 'Reserva cancelada', ...released });
      },
    ],
  } satisfies Partial<RouteHandlers<'rooms'>>;
}
