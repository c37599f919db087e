import { Schema, type Connection, type InferSchemaType } from 'mongoose';

const roomSchema = new Schema(
  {
    /** The room's slug (`consulta-1`), so references to a room read the same everywhere. */
    _id: { type: String, required: true },
    name: { type: String, required: true },
    floor: { type: Number, required: true },
    equipment: { type: [String], default: [] },
    description: { type: String, default: '' },
    active: { type: Boolean, required: true, default: true },
  },
  { collection: 'rooms', timestamps: true, versionKey: false },
);

export type RoomDocument = InferSchemaType<typeof roomSchema> & { _id: string };

export const roomModel = (connection: Connection) => connection.model('Room', roomSchema);
export type RoomModel = ReturnType<typeof roomModel>;
