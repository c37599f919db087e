import { z } from 'zod';
import { defineEvent, eventEnvelopeSchema } from '@crm/contracts';
import { assertEnvelope, createEnvelope, EventValidationError } from '../src';

const userRegistered = defineEvent(
  'auth.user.registered.v1',
  z.object({ userId: z.string().min(1), email: z.email() }),
  { publishers: ['auth'], consumers: ['notifications'] },
);

describe('createEnvelope', () => {
  it('wraps valid data in an envelope with a uuid, the event name, a timestamp and the correlation id', () => {
    const before = Date.now();
    const envelope = createEnvelope(userRegistered, { userId: 'u1', email: 'ana@example.com' }, 'corr-1');

    expect(envelope).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'auth.user.registered.v1',
      occurredAt: expect.any(String),
      correlationId: 'corr-1',
      data: { userId: 'u1', email: 'ana@example.com' },
    });
    expect(Date.parse(envelope.occurredAt)).toBeGreaterThanOrEqual(before - 1);
    expect(eventEnvelopeSchema.safeParse(envelope).success).toBe(true);
  });

  it('gives every envelope its own id unless one is given', () => {
    const data = { userId: 'u1', email: 'ana@example.com' };
    expect(createEnvelope(userRegistered, data, 'c').id).not.toBe(
      createEnvelope(userRegistered, data, 'c').id,
    );
    const id = '0b6f2f7e-5d7c-4b0e-9f55-1f4c0d6f6a11';
    expect(createEnvelope(userRegistered, data, 'c', { id }).id).toBe(id);
  });

  it('strips fields the contract does not know, so they never leave the service', () => {
    const envelope = createEnvelope(
      userRegistered,
      { userId: 'u1', email: 'ana@example.com', password: 'secret' } as unknown as z.input<
        typeof userRegistered.schema
      >,
      'c',
    );
    expect(envelope.data).toEqual({ userId: 'u1', email: 'ana@example.com' });
  });

  it('throws a validation error naming the bad field but not its value', () => {
    const attempt = () => createEnvelope(userRegistered, { userId: 'u1', email: 'not-an-email-ana' }, 'c');
    expect(attempt).toThrow(EventValidationError);
    try {
      attempt();
    } catch (err) {
      const error = err as EventValidationError;
      expect(error.eventName).toBe('auth.user.registered.v1');
      expect(error.issues).toEqual([expect.stringMatching(/^data\.email: /)]);
      expect(error.message).not.toContain('not-an-email-ana');
    }
  });

  it('rejects an envelope without a correlation id', () => {
    expect(() => createEnvelope(userRegistered, { userId: 'u1', email: 'ana@example.com' }, '')).toThrow(
      /correlationId/,
    );
  });
});

describe('assertEnvelope', () => {
  it('accepts a stored envelope and rejects one whose name is not a versioned event name', () => {
    const envelope = createEnvelope(userRegistered, { userId: 'u1', email: 'ana@example.com' }, 'c');
    expect(() => assertEnvelope(JSON.parse(JSON.stringify(envelope)))).not.toThrow();
    expect(() => assertEnvelope({ ...envelope, name: 'UserRegistered' })).toThrow(EventValidationError);
    expect(() => assertEnvelope({ ...envelope, id: 'nope' })).toThrow(/id/);
  });
});
