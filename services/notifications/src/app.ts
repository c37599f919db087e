import {
  AmqpConnection,
  EventConsumer,
  MongoProcessedEventStore,
  SingleLane,
  type Subscription,
} from '@crm/event-bus';
import { connectMongo, createHttpApp, type Logger } from '@crm/server-kit';
import type { NotificationsConfig } from './config';
import { accountMailHandlers } from './events/account-mail.consumer';
import { appointmentMailHandlers } from './events/appointment-mail.consumer';
import { smtpMailer, type Mailer } from './mail/mailer';

/**
 * A worker killed mid-send holds its claims this long before another takes over; the SMTP timeouts
 * (mail/mailer.ts: 5 s connect + 5 s greeting + 10 s socket) keep one send below it.
 */
export const MAIL_CLAIM_LEASE_MS = 30_000;

/**
 * The e-mail worker: consumes events and sends e-mails. It answers HTTP only for health probes.
 * Several replicas compete on the same queues; idempotency by event id keeps e-mails single.
 */
export function createNotificationsService(config: NotificationsConfig, logger: Logger, mailer?: Mailer) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const amqp = new AmqpConnection({ url: config.AMQP_URL, logger, connectionName: 'notifications' });
  const consumer = new EventConsumer({ connection: amqp, exchange: config.EVENTS_EXCHANGE, logger });
  const mail = mailer ?? smtpMailer(config.SMTP_URL, config.MAIL_FROM);

  const app = createHttpApp({
    logger,
    readiness: [
      { name: 'database', check: mongo.isReady },
      { name: 'broker', check: () => amqp.isConnected() },
    ],
    routes: () => undefined,
  });

  const subscriptions: Subscription[] = [];

  return {
    app,
    async start() {
      amqp.start();
      await mongo.ready;
      const idempotency = new MongoProcessedEventStore(mongo.connection);
      const retries = {
        // One e-mail at a time per worker, across both queues: a worker killed after SMTP accepted
        // an e-mail and before it was recorded sends that one again — never more than one per kill.
        // Throughput comes from replicas (they share the queues); prefetch 1 keeps the wait for the
        // lane (at most the other queue's send) far below the claim lease.
        lane: new SingleLane(),
        prefetch: 1,
        maxAttempts: 10,
        retryDelayMs: [1000, 5000, 15000, 30000, 60000],
        claimLeaseMs: MAIL_CLAIM_LEASE_MS,
      };
      subscriptions.push(
        consumer.subscribe({
          queue: `${config.QUEUE_PREFIX}.notifications.account-mail`,
          events: accountMailHandlers(mail, config.PUBLIC_URL),
          idempotency,
          // SMTP outages are retried for several minutes before a message is parked in the DLQ.
          ...retries,
        }),
      );
      subscriptions.push(
        consumer.subscribe({
          queue: `${config.QUEUE_PREFIX}.notifications.appointment-mail`,
          events: appointmentMailHandlers(mail, config.PUBLIC_URL, config.MAIL_FROM),
          idempotency,
          ...retries,
        }),
      );
    },
    /** Resolves once every queue is declared and bound (events published before that are not routed). */
    async ready(timeoutMs = 30000) {
      await Promise.all(subscriptions.map((subscription) => subscription.ready(timeoutMs)));
    },
    async stop() {
      await consumer.close();
      await amqp.close();
      mail.close();
      await mongo.close();
    },
  };
}
