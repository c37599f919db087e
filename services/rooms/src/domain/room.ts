import type { RoomView } from '@crm/contracts';

/** A room as the API shows it; its `id` is a stable slug (`consulta-1`) reservations refer to. */
export type Room = Omit<RoomView, '_id'>;

export interface RoomRepository {
  listActive(): Promise<Room[]>;
  findActive(id: string): Promise<Room | undefined>;
  /** Adds the rooms that are missing; never changes existing ones. Returns how many were added. */
  addMissing(rooms: readonly Room[]): Promise<number>;
}

export function toRoomView(room: Room): RoomView {
  return { _id: room.id, ...room, equipment: [...room.equipment] };
}
