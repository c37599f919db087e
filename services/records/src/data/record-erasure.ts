import { ERASED_PATIENT_NAME, foldName } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import { UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import { RecordDays } from './record-days';
import { listingSearchKeys, type ListingDocument, type RecordModels } from './record.models';

/**
 * The records of patients who erased their account (docs/product/rights-and-access-trail.md#erasure): the
 * patient's name is replaced in every revision and in the listing (the clinical content stays: Ley 41/2002
 * keeps it at least 5 years), and once the retention period has passed since a record was made, the record
 * goes.
 */
export class RecordErasure {
  /** Its own marks (not the saves'), so a sweep can count the days it emptied once it is done. */
  private readonly days: RecordDays;

  constructor(private readonly models: RecordModels) {
    this.days = new RecordDays(models);
  }

  async pseudonymise(userId: string, erasedAt: Date): Promise<void> {
    try {
      await this.models.ErasedPatient.create({ _id: userId, erasedAt });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    await this.models.Revision.updateMany({ userId }, { $set: { 'user.name': ERASED_PATIENT_NAME } });
    // Entry by entry: the search keys hold the doctor's name too.
    const entries = await this.models.Listing.find({ userId })
      .select({ doctor: 1 })
      .lean<Array<Pick<ListingDocument, '_id' | 'doctor'>>>();
    for (let i = 0; i < entries.length; i += UPDATES_PER_COMMAND)
      await this.models.Listing.bulkWrite(
        entries.slice(i, i + UPDATES_PER_COMMAND).map(({ _id, doctor }) => ({
          updateOne: {
            filter: { _id },
            update: {
              $set: {
                'user.name': ERASED_PATIENT_NAME,
                userKey: foldName(ERASED_PATIENT_NAME),
                searchKeys: listingSearchKeys({ user: { name: ERASED_PATIENT_NAME }, doctor }),
              },
            },
          },
        })),
        { ordered: false },
      );
  }

  /** Deletes the records of erased patients made before `cutoff`; how many records went. */
  async deleteExpired(cutoff: Date): Promise<number> {
    const expired: Array<{ _id: string; day?: string }> = [];
    for (const { _id: userId } of await this.models.ErasedPatient.find().lean<Array<{ _id: string }>>())
      expired.push(
        ...(await this.models.Listing.find({ userId, createdAt: { $lt: cutoff } })
          .select({ _id: 1, day: 1 })
          .lean<Array<{ _id: string; day?: string }>>()),
      );
    // The days they leave, once for the whole pass, before any goes.
    await this.days.pages.marked(expired.map(({ day }) => day));
    for (const { _id: recordId } of expired) {
      await this.models.Revision.deleteMany({ recordId });
      await this.models.Listing.deleteOne({ _id: recordId });
    }
    // Counted now: a large pass (the first after years) would otherwise leave more days dirty than
    // a read of the list loads, and the list would read its sorted index for five minutes.
    await this.days.pages.settleOwn();
    return expired.length;
  }
}
