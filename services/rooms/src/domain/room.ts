import type { RoomView } from '@crm/contracts';

export interface Room {
  /** Stable slug, e.g. `consulta-1`: front ends and reservations refer to rooms by it. */
  id: string;
  name: string;
  floor: number;
  equipment: string[];
  description: string;
  active: boolean;
}

export interface RoomRepository {
  listActive(): Promise<Room[]>;
  findActive(id: string): Promise<Room | undefined>;
  /** Adds the rooms that are missing; never changes existing ones. Returns how many were added. */
  addMissing(rooms: readonly Room[]): Promise<number>;
}

export function toRoomView(room: Room): RoomView {
  return { _id: room.id, ...room, equipment: [...room.equipment] };
}
