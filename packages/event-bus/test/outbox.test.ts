import { z } from 'zod';
import { defineEvent } from '@crm/contracts';
import {
  createEnvelope,
  InMemoryProcessedEventStore,
  isDuplicateKeyError,
  processedEventKey,
  pushOutbox,
  withOutbox,
  withOutboxUpdate,
} from '../src';

const roomReserved = defineEvent('rooms.reservation.created.v1', z.object({ roomId: z.string() }), {
  publishers: ['rooms'],
  consumers: [],
});
const envelope = () => createEnvelope(roomReserved, { roomId: 'r1' }, 'corr');

describe('outbox write helpers', () => {
  it('adds the envelopes to a new document as its outbox', () => {
    const first = envelope();
    const second = envelope();
    expect(withOutbox({ _id: 'a1', name: 'Room 1' }, first, second)).toEqual({
      _id: 'a1',
      name: 'Room 1',
      outbox: [first, second],
      outboxPending: true,
    });
  });

  it('flags a new document as pending only when it has events', () => {
    expect(withOutbox({ _id: 'a1' })).toEqual({ _id: 'a1', outbox: [] });
  });

  it('builds a $push of every envelope and the $set of the pending flag', () => {
    const event = envelope();
    expect(pushOutbox(event)).toEqual({
      $push: { outbox: { $each: [event] } },
      $set: { outboxPending: true },
    });
  });

  it('merges the outbox push and flag into an update that already pushes and sets elsewhere', () => {
    const event = envelope();
    expect(withOutboxUpdate({ $set: { a: 1 }, $push: { history: 'x' } }, event)).toEqual({
      $set: { a: 1, outboxPending: true },
      $push: { history: 'x', outbox: { $each: [event] } },
    });
  });

  it('refuses to overwrite an outbox the caller already set', () => {
    expect(() => withOutbox({ outbox: [] }, envelope())).toThrow(/already/);
    expect(() => withOutboxUpdate({ $push: { outbox: 1 } }, envelope())).toThrow(/already/);
  });
});

describe('in-memory processed-event store', () => {
  it('remembers processed keys, per queue and event id', async () => {
    const store = new InMemoryProcessedEventStore();
    const key = processedEventKey('notifications.mail', 'e1');
    expect(key).toBe('notifications.mail:e1');
    expect(await store.has(key)).toBe(false);
    await store.markProcessed(key);
    await store.markProcessed(key);
    expect(await store.has(key)).toBe(true);
    expect(await store.has(processedEventKey('other.queue', 'e1'))).toBe(false);
    expect(store.size).toBe(1);
  });

  it('recognises a duplicate-key error', () => {
    expect(isDuplicateKeyError(Object.assign(new Error('E11000'), { code: 11000 }))).toBe(true);
    expect(isDuplicateKeyError(new Error('other'))).toBe(false);
  });
});
