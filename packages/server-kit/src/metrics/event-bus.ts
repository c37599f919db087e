import type { DeliveryOutcome, EventBusMetrics } from '@crm/event-bus/amqp';
import type { DeployableMetrics } from './registry';

/**
 * The event bus's counters, by routing key (the event's name) and, for deliveries, queue:
 * `crm_events_published_total`, `crm_events_consumed_total` (handled), `crm_events_retried_total`,
 * `crm_events_dead_lettered_total`, `crm_events_refused_total` (not from a publisher of the event).
 */
export function eventBusMetrics(metrics: DeployableMetrics): EventBusMetrics {
  const published = metrics.counter(
    'crm_events_published_total',
    'Events the broker confirmed, by routing key',
    ['routing_key'],
  );
  const byOutcome: Partial<
    Record<DeliveryOutcome, ReturnType<typeof metrics.counter<'routing_key' | 'queue'>>>
  > = {
    handled: metrics.counter('crm_events_consumed_total', 'Events handled by a consumer', [
      'routing_key',
      'queue',
    ]),
    retry: metrics.counter(
      'crm_events_retried_total',
      'Deliveries whose handler failed and that were scheduled again',
      ['routing_key', 'queue'],
    ),
    'dead-lettered': metrics.counter(
      'crm_events_dead_lettered_total',
      'Messages moved to a dead-letter queue',
      ['routing_key', 'queue'],
    ),
    refused: metrics.counter(
      'crm_events_refused_total',
      'Messages dropped because they did not come from a publisher of their event',
      ['routing_key', 'queue'],
    ),
  };
  return {
    published: (routingKey) => published.inc({ routing_key: routingKey }),
    delivered: (routingKey, queue, outcome) => byOutcome[outcome]?.inc({ routing_key: routingKey, queue }),
  };
}
