import { z } from 'zod';

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

/** A named, versioned event with the schema of its `data`. Publishers and consumers share it. */
export interface EventContract<TSchema extends z.ZodType = z.ZodType> {
  name: string;
  schema: TSchema;
}

export type EventData<TContract extends EventContract> = z.infer<TContract['schema']>;

export function defineEvent<TSchema extends z.ZodType>(
  name: string,
  schema: TSchema,
): EventContract<TSchema> {
  return { name, schema };
}
