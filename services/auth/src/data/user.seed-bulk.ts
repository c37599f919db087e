/**
 * Bulk seeding of the auth service's accounts (benchmarks, tests): patient accounts as the desk's
 * "new patient" with a password leaves them (confirmed at once), inserted through the service's
 * `User` model in unordered batches, their events already published (no outbox entries, no pending
 * flag). Nothing here is used by the running service; test/seed-bulk.test.ts holds it to the
 * documents the service writes.
 */
import { Types } from 'mongoose';
import { phoneField } from '@crm/contracts';
import { insertPublished } from '@crm/event-bus';
import { PatientList } from './patient-list';
import { userSearchKeys, type UserModels } from './user.model';

export interface SeedAccount {
  /** 24 hex digits (the account's ObjectId). */
  id: string;
  name: string;
  email: string;
  /** Any way of writing it; stored as the service stores it (digits with the country code). */
  phone?: string;
  createdAt: Date;
  /**
   * A hash made by the service's `hashPassword` (one for all is enough). Required: every account the
   * service confirms has a password, or has an invitation pending and is not confirmed.
   */
  passwordHash: string;
}

/** Then marks "everyone" on the patient list: running replicas load it again. */
export async function seedPatientAccounts(
  models: UserModels,
  accounts: readonly SeedAccount[],
  batchSize?: number,
): Promise<number> {
  const inserted = await insertPublished(
    models.User,
    accounts.map((a) => {
      const texts = {
        name: a.name,
        email: a.email.toLowerCase(),
        ...(a.phone ? { phone: phoneField.parse(a.phone) } : {}),
      };
      return {
        _id: new Types.ObjectId(a.id),
        ...texts,
        searchKeys: userSearchKeys(texts),
        rol: 'PACIENT',
        passwordHash: a.passwordHash,
        confirmed: true,
        createdAt: a.createdAt,
        updatedAt: a.createdAt,
      };
    }),
    batchSize,
  );
  await new PatientList(models).markedEveryone();
  return inserted;
}
