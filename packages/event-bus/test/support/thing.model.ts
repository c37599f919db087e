import { Schema, type Connection, type Model } from 'mongoose';
import { outboxPlugin } from '../../src';

/** A stand-in aggregate, as a service's *.model.ts would declare it (with the outbox plugin). */
export interface Thing {
  _id: string;
  name: string;
  status?: string;
}

export const THINGS_COLLECTION = 'things';

export function thingModel(connection: Connection): Model<Thing> {
  const schema = new Schema<Thing>({
    _id: { type: String, required: true },
    name: { type: String, required: true },
    status: String,
  });
  schema.plugin(outboxPlugin);
  return connection.model<Thing>('Thing', schema, THINGS_COLLECTION);
}
