import { z } from 'zod';
import { objectIdField } from './fields';

/**
 * Room slots (docs/product/rooms.md#room-slots): hourly, from the selected day's 08:00 over a 10-hour window,
 * i.e. 08:00 to 17:00 local time, Monday to Friday, in the centre's time zone. The server enforces them;
 * front ends use the same numbers to draw the calendar.
 */
export const ROOM_SLOT_RULES = {
  timeZone: 'Atlantic/Canary',
  firstHour: 8,
  hoursPerDay: 10,
  maxSlotsPerRequest: 10,
} as const;

export const NO_ROOM_SLOT_SELECTED = 'Debes seleccionar al menos un horario para reservar la consulta';

/** Room ids are stable slugs such as `consulta-1`. */
export const roomIdField = z
  .string({ error: 'La consulta es obligatoria' })
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'La consulta no es válida');

const doctorIdField = objectIdField;

export const reserveRoomBody = z.object({
  room: roomIdField,
  /** Optional: the caller by default. A DOCTOR may only name themselves; an ADMIN may name any doctor. */
  doctor: z
    .union([
      doctorIdField,
      z.object({ id: doctorIdField, name: z.string().trim().min(1).max(100).optional() }),
    ])
    .optional(),
  dates: z
    .array(z.iso.datetime({ offset: true, error: 'Cada horario debe ser una fecha ISO 8601' }), {
      error: NO_ROOM_SLOT_SELECTED,
    })
    .min(1, NO_ROOM_SLOT_SELECTED)
    .max(
      ROOM_SLOT_RULES.maxSlotsPerRequest,
      `Puedes reservar como máximo ${ROOM_SLOT_RULES.maxSlotsPerRequest} horarios a la vez`,
    ),
});
export type ReserveRoomBody = z.infer<typeof reserveRoomBody>;

export const reservedDatesQuery = z.object({ room: roomIdField.optional() });
/** `GET /room-calendar/reservations?room=<id>`: one room's reservations, whoever holds them. */
export const roomReservationsQuery = z.object({ room: roomIdField });
export const reservationIdParam = z.object({ id: objectIdField });

export interface RoomView {
  _id: string;
  id: string;
  name: string;
  floor: number;
  equipment: string[];
  description: string;
  active: boolean;
}

export interface RoomReservationView {
  id: string;
  room: string;
  doctor: { id: string; name?: string };
  /** ISO instants, ascending. */
  dates: string[];
  createdAt: string;
}

/** `POST /room-calendar` answer (201). */
export interface RoomReservedResponse {
  message: string;
  id: string;
  room: string;
  dates: string[];
}

/** `POST /room-calendar` answer when a slot is already held (409): nothing of the request was kept. */
export interface RoomSlotsTakenBody {
  message: string;
  errors: Array<{ message: string; field: 'dates' }>;
  taken: string[];
}
