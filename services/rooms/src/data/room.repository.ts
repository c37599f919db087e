import { isDuplicateKey } from '@crm/server-kit';
import type { Room, RoomRepository } from '../domain/room';
import type { RoomDocument, RoomModel } from './room.model';

const toRoom = (doc: RoomDocument): Room => ({
  id: doc._id,
  name: doc.name,
  floor: doc.floor,
  equipment: [...(doc.equipment ?? [])],
  description: doc.description ?? '',
  active: doc.active,
});

export class MongoRoomRepository implements RoomRepository {
  constructor(private readonly Room: RoomModel) {}

  async listActive(): Promise<Room[]> {
    return (await this.Room.find({ active: true }).sort({ _id: 1 }).lean<RoomDocument[]>()).map(toRoom);
  }

  async findActive(id: string): Promise<Room | undefined> {
    const doc = await this.Room.findOne({ _id: id, active: true }).lean<RoomDocument>();
    return doc ? toRoom(doc) : undefined;
  }

  async addMissing(rooms: readonly Room[]): Promise<number> {
    const upserts = rooms.map(({ id, ...fields }) => ({
      updateOne: { filter: { _id: id }, update: { $setOnInsert: fields }, upsert: true },
    }));
    try {
      return (await this.Room.bulkWrite(upserts, { ordered: false })).upsertedCount;
    } catch (error) {
      // Two replicas starting together race on the same upsert; the loser's room exists: run again.
      if (!isDuplicateKey(error)) throw error;
      return (await this.Room.bulkWrite(upserts, { ordered: false })).upsertedCount;
    }
  }
}
