import { Schema, type Connection } from 'mongoose';
import { reminderDue, type EventData } from '@crm/contracts';
import { createEnvelope, outboxPlugin, withOutbox } from '@crm/event-bus';
import { correlationIdOrNew, isDuplicateKey } from '@crm/server-kit';

/**
 * Reminders in the database, not in timers: one `reminders` document per booked
 * appointment with its due time, insert-only under the appointment id. An appointment that ended
 * leaves a tombstone under the same id, so a booking event that arrives late (out of order) finds
 * the id taken and schedules nothing. Sending is claimed by inserting `reminder_sends` under the
 * appointment id, with the `notifications.reminder.due.v1` event in its outbox: one insert, so with
 * any number of replicas and restarts each reminder is claimed (and its e-mail requested) once.
 */
interface ReminderDocument {
  _id: string;
  /** null: the appointment ended (tombstone). */
  dueAt: Date | null;
  date?: Date;
  user?: { id: string; name: string; email: string };
  refundForfeited?: boolean;
}

const reminderSchema = new Schema<ReminderDocument>(
  {
    _id: { type: String, required: true },
    dueAt: { type: Date, default: null },
    date: Date,
    user: { type: new Schema({ id: String, name: String, email: String }, { _id: false }) },
    refundForfeited: Boolean,
  },
  { collection: 'reminders', versionKey: false },
);
reminderSchema.index({ dueAt: 1 });

const sendSchema = new Schema(
  { _id: String, claimedAt: Date },
  { collection: 'reminder_sends', versionKey: false },
);
sendSchema.plugin(outboxPlugin);

export type DueReminder = EventData<typeof reminderDue>;

export function reminderStore(connection: Connection) {
  const Reminder = connection.model<ReminderDocument>('Reminder', reminderSchema);
  const Send = connection.model('ReminderSend', sendSchema);
  const insertIgnoringDuplicate = async (write: () => Promise<unknown>) => {
    try {
      await write();
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  };

  return {
    /** The outbox source for the relay. */
    sends: Send,
    /** A booked appointment's reminder (nothing if its id is already known: scheduled, or ended). */
    schedule: (reminder: DueReminder, dueAt: Date) =>
      insertIgnoringDuplicate(() =>
        Reminder.create({
          _id: reminder.appointmentId,
          dueAt,
          date: new Date(reminder.date),
          user: reminder.user,
          ...(reminder.refundForfeited ? { refundForfeited: true } : {}),
        }),
      ),
    /** The appointment ended (cancelled, moved, checked in, …): no reminder, now or later. */
    async drop(appointmentId: string, date: Date) {
      await Reminder.deleteOne({ _id: appointmentId, dueAt: { $ne: null } });
      await insertIgnoringDuplicate(() => Reminder.create({ _id: appointmentId, dueAt: null, date }));
    },
    /** Reminders due by `now` for appointments still ahead. */
    due: (now: Date, limit: number) =>
      Reminder.find({ dueAt: { $ne: null, $lte: now }, date: { $gt: now } })
        .limit(limit)
        .lean<ReminderDocument[]>(),
    /**
     * Claims one reminder and requests its e-mail in the same insert; false if it was claimed already.
     * Either way the reminder is then retired to a tombstone: out of what is due, or more than the
     * sweep's read of claimed reminders still ahead would hide the ones falling due after them.
     */
    async claim(reminder: ReminderDocument, now: Date) {
      const claimed = await insertIgnoringDuplicate(() =>
        Send.create(
          withOutbox(
            { _id: reminder._id, claimedAt: now },
            createEnvelope(
              reminderDue,
              {
                appointmentId: reminder._id,
                date: reminder.date!.toISOString(),
                user: reminder.user!,
                ...(reminder.refundForfeited ? { refundForfeited: true } : {}),
              },
              correlationIdOrNew(),
            ),
          ),
        ),
      );
      await Reminder.updateOne({ _id: reminder._id, dueAt: { $ne: null } }, { $set: { dueAt: null } });
      return claimed;
    },
    /** Sent reminders and tombstones are kept only as long as they are useful. */
    forgetBefore: (instant: Date) => Reminder.deleteMany({ date: { $lt: instant } }),
  };
}

export type ReminderStore = ReturnType<typeof reminderStore>;
