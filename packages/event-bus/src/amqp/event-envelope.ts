import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@crm/contracts';

/** Thrown when an event or its data does not match its contract; never retried. */
export class EventValidationError extends Error {
  override readonly name = 'EventValidationError';
  constructor(
    readonly eventName: string,
    /** Paths and messages only: zod issues never carry the offending values here. */
    readonly issues: readonly string[],
  ) {
    super(`event ${eventName} is invalid: ${issues.join('; ')}`);
  }
}

/** The data type a contract's handlers receive (after zod parsing, so defaults/transforms applied). */
export type ContractData<C extends EventContract> = z.output<C['schema']>;

export interface CreateEnvelopeOptions {
  /** Reuse a known id (e.g. a retried command) so consumers deduplicate; default a new uuid. */
  id?: string;
  occurredAt?: Date;
}

/**
 * Builds a validated envelope. `data` is replaced by the schema's parse result, so unknown keys
 * are stripped before they leave the service (keeps accidental personal data off the bus).
 */
export function createEnvelope<C extends EventContract>(
  contract: C,
  data: z.input<C['schema']>,
  correlationId: string,
  options: CreateEnvelopeOptions = {},
): EventEnvelope<ContractData<C>> {
  const parsedData = contract.schema.safeParse(data);
  if (!parsedData.success)
    throw new EventValidationError(contract.name, describeIssues(parsedData.error, 'data'));
  const envelope = {
    id: options.id ?? randomUUID(),
    name: contract.name,
    occurredAt: (options.occurredAt ?? new Date()).toISOString(),
    correlationId,
    data: parsedData.data as ContractData<C>,
  };
  assertEnvelope(envelope);
  return envelope;
}

/** Validates the envelope's own fields (id, name, occurredAt, correlationId); data is left as is. */
export function assertEnvelope(value: unknown): asserts value is EventEnvelope {
  const result = eventEnvelopeSchema.safeParse(value);
  if (!result.success) {
    const name =
      typeof (value as { name?: unknown })?.name === 'string'
        ? (value as { name: string }).name
        : '(unknown)';
    throw new EventValidationError(name, describeIssues(result.error));
  }
}

/** "path: message" per issue, values left out on purpose (they may be personal data). */
export function describeIssues(error: z.ZodError, prefix?: string): string[] {
  return error.issues.slice(0, 10).map((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    return `${path || '(root)'}: ${issue.message}`;
  });
}
