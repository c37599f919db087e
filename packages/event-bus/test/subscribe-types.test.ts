import { z } from 'zod';
import { defineEvent } from '@crm/contracts';
import { InMemoryProcessedEventStore, on, type EventConsumer } from '../src';

const userRegistered = defineEvent(
  'auth.user.registered.v1',
  z.object({ userId: z.string(), email: z.email() }),
  { publishers: ['auth'], consumers: ['notifications'] },
);
const slotBooked = defineEvent(
  'appointments.appointment.booked.v1',
  z.object({ slot: z.iso.datetime(), price: z.number() }),
  { publishers: ['appointments'], consumers: ['notifications'] },
);

/**
 * Compile-time checks, enforced by `tsc` (the root typecheck includes tests): each handler in
 * `events` receives its own contract's data type. Never called at run time.
 */
export function typeChecks(consumer: EventConsumer): void {
  consumer.subscribe({
    queue: 'q',
    idempotency: new InMemoryProcessedEventStore(),
    events: [
      [userRegistered, (event) => void (event.data.email satisfies string)],
      [slotBooked, (event) => void (event.data.price satisfies number)],
    ],
  });
  const bindings = [on(userRegistered, (event) => void (event.data.userId satisfies string))] as const;
  consumer.subscribe({ queue: 'q', idempotency: new InMemoryProcessedEventStore(), events: bindings });
  consumer.subscribe({
    queue: 'q',
    idempotency: new InMemoryProcessedEventStore(),
    // @ts-expect-error a handler cannot read fields its contract does not have
    events: [[slotBooked, (event) => void (event.data.email satisfies string)]],
  });
}

describe('subscribe typing', () => {
  it('types each handler by its own contract (checked by tsc)', () => {
    expect(typeChecks).toBeInstanceOf(Function);
  });
});
