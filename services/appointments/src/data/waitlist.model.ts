import { Schema, type Connection } from 'mongoose';
import { outboxPlugin } from '@crm/event-bus';

/** One patient in one day's waiting line; the unique key makes joining twice a no-op. */
const entrySchema = new Schema(
  {
    /** The patient's id, stored under the API's name: another name would mean migrating every document. */
    pacientId: { type: String, required: true },
    day: { type: String, required: true },
    joinedAt: { type: Date, required: true },
  },
  { collection: 'waitlist_entries', versionKey: false },
);
entrySchema.index({ pacientId: 1, day: 1 }, { unique: true });
entrySchema.index({ day: 1, joinedAt: 1 });

/**
 * That a slot was offered to a patient (`_id` = slot instant and patient), with the offer's e-mail
 * event in its outbox. Insert-only, so the relay is its only other writer; a slot is offered to a
 * patient once, however often it frees up.
 */
const offerRecordSchema = new Schema(
  {
    _id: { type: String },
    offerId: { type: String, required: true },
    /** The patient's id, stored under the API's name: another name would mean migrating every document. */
    pacientId: { type: String, required: true },
    date: { type: Date, required: true },
    offeredAt: { type: Date, required: true },
    /** Records of offers that ended unclaimed (`expired:<offer id>`): when the hold ended. */
    expiresAt: { type: Date },
  },
  { collection: 'waitlist_offers', versionKey: false },
);
offerRecordSchema.plugin(outboxPlugin);
offerRecordSchema.index({ pacientId: 1 });

export function waitlistModels(connection: Connection) {
  return {
    WaitlistEntry: connection.model('WaitlistEntry', entrySchema),
    WaitlistOffer: connection.model('WaitlistOffer', offerRecordSchema),
  };
}

export type WaitlistModels = ReturnType<typeof waitlistModels>;
