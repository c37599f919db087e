import useSWR from 'swr';
import type { RoomReservedResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** SPEC §9: "A fixed room identifier is hard-coded for room booking" (the rooms service's first room). */
export const ROOM_ID = 'consulta-1';

const reservedPath = `/room-calendar/reserved-dates?room=${ROOM_ID}`;

/** GET /room-calendar/reserved-dates?room= — reserved slot instants of the room, from now on. */
export const useReservedRoomDates = () =>
  useSWR<string[]>(reservedPath, () =>
    api.get<string[]>('/room-calendar/reserved-dates', { query: { room: ROOM_ID } }),
  );

/**
 * POST /room-calendar {room, doctor, dates} with the doctor's token (the rooms service requires it,
 * services/rooms/README.md); 201 is success.
 */
export const reserveRoom = (doctor: { id: string; name?: string }, dates: string[]) =>
  api.post<RoomReservedResponse>('/room-calendar', { room: ROOM_ID, doctor, dates });
