import { z } from 'zod';
import { defineEvent } from './envelope';

/** One consulting-room reservation: the room, the doctor holding it and its hourly slots (ISO instants). */
const reservationSnapshot = z.object({
  id: z.string(),
  room: z.string(),
  doctorId: z.string(),
  dates: z.array(z.iso.datetime()).min(1),
});

/** A doctor (or an admin for a doctor) reserved one or more hourly slots of a room. */
export const roomReservationReserved = defineEvent('rooms.reservation.reserved.v1', reservationSnapshot, {
  publishers: ['rooms'],
  consumers: [],
});

/** A reservation was cancelled: its slots are free again. */
export const roomReservationReleased = defineEvent('rooms.reservation.released.v1', reservationSnapshot, {
  publishers: ['rooms'],
  consumers: [],
});
