import { z } from 'zod';
import { defineEvent } from './envelope';

/**
 * A reminder of an appointment fell due: written by the e-mail worker's reminder poller
 * in the same insert that claims the reminder (so with two replicas it exists once), sent as an
 * e-mail by the worker's mail queue like any other e-mail.
 */
export const reminderDue = defineEvent(
  'notifications.reminder.due.v1',
  z.object({
    appointmentId: z.string(),
    date: z.iso.datetime({ offset: true }),
    user: z.object({ id: z.string(), name: z.string(), email: z.string() }),
    /** Made by a move inside the refund window: cancelling it is not refunded. */
    refundForfeited: z.boolean().optional(),
  }),
  {
    publishers: ['notifications'],
    consumers: ['notifications'],
  },
);
