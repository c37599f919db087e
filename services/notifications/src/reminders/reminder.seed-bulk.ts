/**
 * Bulk seeding of reminders (benchmarks, tests): `reminders` as `schedule` and `drop` leave them and
 * `reminder_sends` as `claim` leaves them, its event already published (no outbox entries, no
 * pending flag), through the store's own models in unordered batches. Nothing here is used by the
 * running service.
 */
import type { Connection } from 'mongoose';
import { insertPublished, type BulkInsertModel } from '@crm/event-bus';
import { reminderStore } from './reminder.store';

export interface SeedReminder {
  appointmentId: string;
  date: Date;
  user: { id: string; name: string; email: string };
  /** When it is due; null: the appointment ended (a tombstone). */
  dueAt: Date | null;
  /** Claimed (its e-mail requested) at. */
  claimedAt?: Date;
}

/** The store's models on `connection` (registered by `reminderStore` when not yet). */
function modelsOn(connection: Connection): { Reminder: BulkInsertModel; Send: BulkInsertModel } {
  if (!connection.models.Reminder) reminderStore(connection);
  return { Reminder: connection.model('Reminder'), Send: connection.model('ReminderSend') };
}

export async function seedReminders(
  connection: Connection,
  reminders: readonly SeedReminder[],
  batchSize?: number,
): Promise<{ reminders: number; sends: number }> {
  const { Reminder, Send } = modelsOn(connection);
  return {
    reminders: await insertPublished(
      Reminder,
      reminders.map((r) => ({
        _id: r.appointmentId,
        dueAt: r.dueAt,
        date: r.date,
        ...(r.dueAt ? { user: r.user } : {}),
      })),
      batchSize,
    ),
    sends: await insertPublished(
      Send,
      reminders.filter((r) => r.claimedAt).map((r) => ({ _id: r.appointmentId, claimedAt: r.claimedAt })),
      batchSize,
    ),
  };
}

/** Inserts claimed reminders' sends only (the reminders themselves forgotten a day after). */
export async function seedReminderSends(
  connection: Connection,
  sends: ReadonlyArray<{ appointmentId: string; claimedAt: Date }>,
  batchSize?: number,
): Promise<number> {
  const { Send } = modelsOn(connection);
  return insertPublished(
    Send,
    sends.map((s) => ({ _id: s.appointmentId, claimedAt: s.claimedAt })),
    batchSize,
  );
}
