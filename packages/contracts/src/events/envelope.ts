import { z } from 'zod';
import type { BusParticipant } from './participants';

/** Every message on the bus is wrapped in this envelope; `name` is also the routing key. */
export const eventEnvelopeSchema = z.object({
  id: z.uuid(),
  name: z.string().regex(/^[a-z]+(\.[a-zA-Z]+)+\.v\d+$/),
  occurredAt: z.iso.datetime({ offset: true }),
  correlationId: z.string().min(1).max(200),
  data: z.unknown(),
});

export type EventEnvelope<TData = unknown> = Omit<z.infer<typeof eventEnvelopeSchema>, 'data'> & {
  data: TData;
};

/**
 * A named, versioned event with the schema of its `data`, and who may publish and consume it.
 * Publishers and consumers share it. `publishers` and `consumers` are broker user names (one per
 * deployable, see participants.ts): the broker lets only the publishers send it (topic
 * permissions), stamps their name on it (`user_id`, checked by RabbitMQ), and every consumer drops
 * a copy that does not come from one of them; only the consumers may bind a queue to it.
 */
export interface EventContract<TSchema extends z.ZodType = z.ZodType> {
  name: string;
  schema: TSchema;
  publishers: readonly string[];
  consumers: readonly string[];
}

export type EventData<TContract extends EventContract> = z.infer<TContract['schema']>;

/** Who may publish an event and who subscribes to it (the deployables of the product). */
export interface EventParties {
  publishers: readonly BusParticipant[];
  consumers: readonly BusParticipant[];
}

export function defineEvent<TSchema extends z.ZodType>(
  name: string,
  schema: TSchema,
  parties: EventParties,
): EventContract<TSchema> {
  if (parties.publishers.length === 0) throw new Error(`event ${name} has no publisher`);
  return { name, schema, publishers: [...parties.publishers], consumers: [...parties.consumers] };
}
