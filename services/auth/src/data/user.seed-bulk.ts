/**
 * Bulk seeding of the auth service's accounts (benchmarks, tests): patient accounts as the desk's
 * "new patient" leaves them once confirmed, inserted through the service's `User` model in
 * unordered batches, their events already published (no outbox entries, no pending flag).
 * Nothing here is used by the running service.
 */
import { Types } from 'mongoose';
import { insertPublished } from '@crm/event-bus';
import type { UserModels } from './user.model';

export interface SeedAccount {
  /** 24 hex digits (the account's ObjectId). */
  id: string;
  name: string;
  email: string;
  phone?: string;
  createdAt: Date;
  /** A password hash made by the service (one for all is enough); absent: no password set yet. */
  passwordHash?: string;
}

export function seedPatientAccounts(
  models: UserModels,
  accounts: readonly SeedAccount[],
  batchSize?: number,
): Promise<number> {
  return insertPublished(
    models.User,
    accounts.map((a) => ({
      _id: new Types.ObjectId(a.id),
      name: a.name,
      email: a.email.toLowerCase(),
      ...(a.phone ? { phone: a.phone } : {}),
      rol: 'PACIENT',
      ...(a.passwordHash ? { passwordHash: a.passwordHash } : {}),
      confirmed: true,
      createdAt: a.createdAt,
      updatedAt: a.createdAt,
    })),
    batchSize,
  );
}
