import { AsyncLocalStorage } from 'node:async_hooks';
import type { EventContract } from '@crm/contracts';
import type { EventBinding, EventHandler } from '@crm/event-bus/amqp';
import type { DeployableMetrics } from '@crm/server-kit';
import type { Mailer } from './mailer';

/** The event whose handler is running, so that an e-mail sent by it is counted under its name. */
const handling = new AsyncLocalStorage<string>();

/**
 * `crm_emails_sent_total{event}`: e-mails the SMTP server accepted, by the event that caused them
 * (`appointments.appointment.booked.v1` for booking confirmations). Wraps the worker's mailer.
 */
export function countSentMail(mailer: Mailer, metrics: DeployableMetrics): Mailer {
  const sent = metrics.counter(
    'crm_emails_sent_total',
    'E-mails the SMTP server accepted, by the event that caused them',
    ['event'],
  );
  return {
    async send(mail) {
      await mailer.send(mail);
      sent.inc({ event: handling.getStore() ?? 'other' });
    },
    close: () => mailer.close(),
  };
}

/** The same handlers, each run under its event's name (see countSentMail). */
export function namedByEvent<T extends readonly EventBinding<EventContract>[]>(bindings: T): T {
  return bindings.map(([contract, handler]) => {
    const named: EventHandler<EventContract> = (event, context) =>
      handling.run(contract.name, () => handler(event, context));
    return [contract, named] as const;
  }) as unknown as T;
}
