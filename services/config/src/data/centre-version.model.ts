import { Schema, type Connection } from 'mongoose';
import { outboxPlugin } from '@crm/event-bus';
import type { CentreProfileData } from '@crm/contracts';

/**
 * One document per version of the centre profile, never changed once written: `_id` IS the version
 * number, so the unique `_id` index lets exactly one writer create each version (two replicas seeding
 * at once, two admins saving at once), on FerretDB and MongoDB alike, without transactions.
 */
const centreVersionSchema = new Schema(
  {
    _id: { type: Number, required: true },
    // Validated with @crm/contracts `centreProfileBody` before it is written; stored as parsed.
    profile: { type: Schema.Types.Mixed, required: true },
    createdAt: { type: Date, required: true },
    createdBy: { type: new Schema({ id: String, rol: String }, { _id: false, id: false }), required: false },
  },
  { collection: 'centre_versions', versionKey: false, minimize: false },
);
centreVersionSchema.plugin(outboxPlugin);

export interface CentreVersionDocument {
  _id: number;
  profile: CentreProfileData;
  createdAt: Date;
  createdBy?: { id: string; rol: string };
}

export const centreVersionModel = (connection: Connection) =>
  connection.model('CentreVersion', centreVersionSchema);
export type CentreVersionModel = ReturnType<typeof centreVersionModel>;
