import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import { isDuplicateKey } from '@crm/server-kit';
import type { SlotOffer, WaitlistEntry, WaitlistRepository } from '../domain/waitlist';
import type { WaitlistModels } from './waitlist.model';

const offerRecordId = (date: Date, patientId: string) => `${date.toISOString()}|${patientId}`;

/** That `offer` was made (its e-mail event goes in the outbox with it); also the bulk seed's. */
export const offerRecord = (offer: SlotOffer, offeredAt = new Date()) => ({
  _id: offerRecordId(offer.date, offer.patientId),
  offerId: offer.id,
  pacientId: offer.patientId,
  date: offer.date,
  offeredAt,
});

/** An entry as stored (waitlist.model.ts). */
interface EntryDocument {
  pacientId: string;
  day: string;
  joinedAt: Date;
}

const toEntry = (doc: EntryDocument): WaitlistEntry => ({
  patientId: doc.pacientId,
  day: doc.day,
  joinedAt: doc.joinedAt,
});

const toEntryDocument = (entry: WaitlistEntry): EntryDocument => ({
  pacientId: entry.patientId,
  day: entry.day,
  joinedAt: entry.joinedAt,
});

export class MongoWaitlistRepository implements WaitlistRepository {
  constructor(
    private readonly models: WaitlistModels,
    private readonly outboxWritten: () => void,
  ) {}

  async join(entry: WaitlistEntry): Promise<boolean> {
    try {
      await this.models.WaitlistEntry.create(toEntryDocument(entry));
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async leave(patientId: string, day: string): Promise<boolean> {
    const { deletedCount } = await this.models.WaitlistEntry.deleteOne({ pacientId: patientId, day });
    return deletedCount > 0;
  }

  async entriesOf(patientId: string, fromDay: string): Promise<WaitlistEntry[]> {
    const docs = await this.models.WaitlistEntry.find({ pacientId: patientId, day: { $gte: fromDay } })
      .sort({ day: 1 })
      .lean<EntryDocument[]>();
    return docs.map(toEntry);
  }

  async line(day: string): Promise<WaitlistEntry[]> {
    const docs = await this.models.WaitlistEntry.find({ day })
      .sort({ joinedAt: 1, _id: 1 })
      .lean<EntryDocument[]>();
    return docs.map(toEntry);
  }

  async wasOffered(date: Date, patientId: string): Promise<boolean> {
    return (await this.models.WaitlistOffer.exists({ _id: offerRecordId(date, patientId) })) !== null;
  }

  async recordOffer(offer: SlotOffer, event: EventEnvelope): Promise<void> {
    await this.models.WaitlistOffer.create(withOutbox(offerRecord(offer), event));
    this.outboxWritten();
  }

  async startClaim(offer: SlotOffer): Promise<boolean> {
    try {
      await this.models.WaitlistOffer.create({
        _id: `claim:${offer.id}`,
        offerId: offer.id,
        pacientId: offer.patientId,
        date: offer.date,
        offeredAt: new Date(),
      });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async abandonClaim(offer: SlotOffer): Promise<void> {
    await this.models.WaitlistOffer.deleteOne({ _id: `claim:${offer.id}` });
  }

  async recordExpiry(offer: SlotOffer, event: EventEnvelope): Promise<boolean> {
    try {
      await this.models.WaitlistOffer.create(
        withOutbox(
          {
            _id: `expired:${offer.id}`,
            offerId: offer.id,
            pacientId: offer.patientId,
            date: offer.date,
            offeredAt: offer.expiresAt,
            expiresAt: offer.expiresAt,
          },
          event,
        ),
      );
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    this.outboxWritten();
    return true;
  }

  async expiredOffersOf(patientId: string, from: Date): Promise<SlotOffer[]> {
    const docs = await this.models.WaitlistOffer.find({
      pacientId: patientId,
      date: { $gte: from },
      expiresAt: { $exists: true },
    }).lean<Array<{ offerId: string; pacientId: string; date: Date; expiresAt: Date }>>();
    return docs.map((doc) => ({
      id: doc.offerId,
      patientId: doc.pacientId,
      date: doc.date,
      expiresAt: doc.expiresAt,
    }));
  }

  async dropBefore(day: string): Promise<number> {
    const { deletedCount } = await this.models.WaitlistEntry.deleteMany({ day: { $lt: day } });
    return deletedCount;
  }

  async forget(patientId: string): Promise<void> {
    await this.models.WaitlistEntry.deleteMany({ pacientId: patientId });
    await this.models.WaitlistOffer.deleteMany({ pacientId: patientId });
  }
}
