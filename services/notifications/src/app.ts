import { SingleLane } from '@crm/event-bus/amqp';
import type { Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import type { NotificationsConfig } from './config';
import { accountMailHandlers } from './events/account-mail.consumer';
import { appointmentMailHandlers } from './events/appointment-mail.consumer';
import { centreProfileHandlers } from './events/centre-profile.consumer';
import { paymentMailHandlers } from './events/payment-mail.consumer';
import { CentreProfileClient } from './data/centre-profile.client';
import { replyingToCentre, smtpMailer, type Mailer } from './mail/mailer';
import { invitationMailHandlers, patientAccessHandlers } from './events/account-access.consumer';
import { PatientAccessStore } from './data/patient-access.store';
import { reminderStore } from './reminders/reminder.store';
import { countSentMail, namedByEvent } from './mail/sent-metrics';
import { claimDueReminders, reminderMailHandlers, reminderScheduleHandlers } from './reminders/reminders';

/**
 * A worker killed mid-send holds its claims this long before another takes over; the SMTP timeouts
 * (mail/mailer.ts: 5 s connect + 5 s greeting + 10 s socket) keep one send below it.
 */
export const MAIL_CLAIM_LEASE_MS = 30_000;

/** The worker's queues are `<QUEUE_PREFIX>.notifications.<purpose>`. */
export const NOTIFICATIONS_QUEUE_PURPOSES = [
  'account-mail',
  'appointment-mail',
  'invitation-mail',
  'patient-access',
  'centre-profile',
  'reminder-schedule',
  'reminder-mail',
  'payment-mail',
] as const;

/**
 * The e-mail worker: consumes events and sends e-mails. It answers HTTP only for health probes.
 * Several replicas compete on the same queues; idempotency by event id keeps e-mails single.
 */
export function createNotificationsService(config: NotificationsConfig, logger: Logger, mailer?: Mailer) {
  const runtime = createServiceRuntime('notifications', config, logger);
  // The centre profile (brand, address, sender name) of every e-mail, read from the config service.
  const centre = new CentreProfileClient({
    configServiceUrl: config.CONFIG_SERVICE_URL,
    ttlMs: config.CENTRE_PROFILE_TTL_MS,
    timeoutMs: config.CONFIG_TIMEOUT_MS,
    logger,
  });
  // Metrics: every e-mail sent is counted under the event that caused it (crm_emails_sent_total).
  const mail = countSentMail(
    replyingToCentre(mailer ?? smtpMailer(config.SMTP_URL, config.MAIL_FROM), centre),
    runtime.metrics,
  );
  const mailQueue = {
    // One e-mail at a time per worker, across both queues: a worker killed after SMTP accepted
    // an e-mail and before it was recorded sends that one again — never more than one per kill.
    // Throughput comes from replicas (they share the queues); prefetch 1 keeps the wait for the
    // lane (at most the other queue's send) far below the claim lease. SMTP outages are retried for
    // several minutes before a message is parked in the DLQ.
    lane: new SingleLane(),
    prefetch: 1,
    maxAttempts: 10,
    retryDelayMs: [1000, 5000, 15000, 30000, 60000],
    claimLeaseMs: MAIL_CLAIM_LEASE_MS,
  };
  // Who can sign in (auth events), so that e-mails only point to an area the patient can enter.
  const access = new PatientAccessStore(runtime.connection);
  const [
    accountMail,
    appointmentMail,
    invitationMail,
    patientAccess,
    centreProfile,
    reminderSchedule,
    reminderMail,
    paymentMail,
  ] = NOTIFICATIONS_QUEUE_PURPOSES;
  // Reminders: due times in the database, claimed once, sent through the mail queue.
  const reminders = reminderStore(runtime.connection);
  runtime.outbox([reminders.sends]);
  runtime.consume({
    purpose: reminderSchedule,
    events: reminderScheduleHandlers(
      reminders,
      {
        beforeDeadlineMs: config.REMINDER_BEFORE_REFUND_DEADLINE_MINUTES * 60_000,
        lateLeadMs: config.REMINDER_LATE_LEAD_MINUTES * 60_000,
        minNoticeMs: config.REMINDER_MIN_NOTICE_MINUTES * 60_000,
      },
      centre,
    ),
    prefetch: 10,
  });
  runtime.consume({
    purpose: reminderMail,
    events: namedByEvent(reminderMailHandlers(mail, config.PUBLIC_URL, centre)),
    ...mailQueue,
  });
  runtime.every({
    name: 'reminders due',
    intervalMs: config.REMINDER_POLL_MS,
    run: () => claimDueReminders(reminders),
  });
  runtime.consume({
    purpose: accountMail,
    events: namedByEvent(accountMailHandlers(mail, config.PUBLIC_URL, centre)),
    ...mailQueue,
  });
  runtime.consume({
    purpose: appointmentMail,
    events: namedByEvent(appointmentMailHandlers(mail, config.PUBLIC_URL, centre, access)),
    ...mailQueue,
  });
  runtime.consume({
    purpose: invitationMail,
    events: namedByEvent(invitationMailHandlers(mail, config.PUBLIC_URL, centre)),
    ...mailQueue,
  });
  runtime.consume({
    purpose: paymentMail,
    events: paymentMailHandlers(mail, centre, logger),
    ...mailQueue,
  });
  runtime.consume({ purpose: patientAccess, events: patientAccessHandlers(access), prefetch: 10 });
  // Dropping the copy of the profile is harmless to repeat and must not wait for an e-mail.
  runtime.consume({ purpose: centreProfile, events: centreProfileHandlers(centre), prefetch: 10 });

  const service = {
    // HTTP only for the health probes.
    app: runtime.httpApp(() => undefined),
    centre,
    ...runtime.startAndStop({
      // `consuming()` resolves once every queue is declared and bound (events published before are not routed).
      consumingTimeoutMs: 30000,
      // Consumers first: an e-mail being sent finishes before SMTP closes.
      afterStop: () => mail.close(),
    }),
  };
  return service satisfies ServiceHandle;
}

export type NotificationsService = ReturnType<typeof createNotificationsService>;
