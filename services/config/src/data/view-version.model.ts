import { Schema, type Connection } from 'mongoose';
import { outboxPlugin } from '@crm/event-bus';
import type { ViewField } from '@crm/contracts';

/**
 * One document per version of a view: `_id` is `<view>@<version>`, so the unique `_id` index lets
 * exactly one writer create each version (enforced by FerretDB and MongoDB alike, no transactions).
 */
const viewVersionSchema = new Schema(
  {
    _id: { type: String, required: true },
    view: { type: String, required: true },
    version: { type: Number, required: true },
    // Validated with @crm/view-config before it is written; stored as given.
    fields: { type: [Schema.Types.Mixed], required: true },
    createdAt: { type: Date, required: true },
    createdBy: { type: new Schema({ id: String, rol: String }, { _id: false, id: false }), required: false },
  },
  { collection: 'view_versions', versionKey: false },
);
viewVersionSchema.plugin(outboxPlugin);
viewVersionSchema.index({ view: 1, version: -1 });

export interface ViewVersionDocument {
  _id: string;
  view: string;
  version: number;
  fields: ViewField[];
  createdAt: Date;
  createdBy?: { id: string; rol: string };
}

export const viewVersionId = (view: string, version: number) => `${view}@${version}`;

export const viewVersionModel = (connection: Connection) =>
  connection.model('ViewVersion', viewVersionSchema);
export type ViewVersionModel = ReturnType<typeof viewVersionModel>;
