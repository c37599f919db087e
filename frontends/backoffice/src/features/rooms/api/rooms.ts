import useSWR from 'swr';
import type { RoomReservationView, RoomReservedResponse, StaffNames } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** Room booking uses one fixed room (docs/product/rooms.md#fixed-room), the rooms service's first room. */
export const ROOM_ID = 'consulta-1';

const reservedPath = `/room-calendar/reserved-dates?room=${ROOM_ID}`;
const reservationsPath = `/room-calendar/reservations?room=${ROOM_ID}`;

/** GET /room-calendar/reserved-dates?room= — reserved slot instants of the room, from now on. */
export const useReservedRoomDates = () =>
  useSWR<string[]>(reservedPath, () =>
    api.get<string[]>('/room-calendar/reserved-dates', { query: { room: ROOM_ID } }),
  );

/** GET /room-calendar/reservations?room= — the room's reservations from now on, whoever holds them. */
export const useRoomReservations = () =>
  useSWR<RoomReservationView[]>(reservationsPath, () =>
    api.get<RoomReservationView[]>('/room-calendar/reservations', { query: { room: ROOM_ID } }),
  );

/**
 * Staff names by account id, from the auth service's directory of doctors and admins
 * (`GET /users/staff/names`, names only). The one source of who is who: a reservation's stored name
 * was sent by a client.
 */
export const useStaffNames = () =>
  useSWR<Map<string, string>>('/users/staff/names', async () => {
    const { staff } = await api.get<StaffNames>('/users/staff/names');
    return new Map(staff.map((person) => [person.id, person.name] as const));
  });

/**
 * POST /room-calendar {room, doctor, dates} with the doctor's token (the rooms service requires it,
 * services/rooms/README.md); 201 is success.
 */
export const reserveRoom = (doctor: { id: string; name?: string }, dates: string[]) =>
  api.post<RoomReservedResponse>('/room-calendar', { room: ROOM_ID, doctor, dates });

/** DELETE /room-calendar/:id — frees every hour of the reservation (a doctor their own, an admin any). */
export const cancelRoomReservation = (id: string) => api.delete<RoomReservationView>(`/room-calendar/${id}`);
