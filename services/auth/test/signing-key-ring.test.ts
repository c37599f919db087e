import { newSigningKey } from '@crm/testing';
import { SigningKeyRing, type SigningKeyStore, type StoredSigningKey } from '../src/domain/signing-key-ring';

/** The store as the database behaves: one key per generation, the newest first. */
class MemoryStore implements SigningKeyStore {
  keys: StoredSigningKey[] = [];
  async list() {
    return [...this.keys].sort((a, b) => b.generation - a.generation);
  }
  async add(key: StoredSigningKey) {
    if (this.keys.some((k) => k.generation === key.generation)) return false;
    this.keys.push(key);
    return true;
  }
  async remove(kids: readonly string[]) {
    this.keys = this.keys.filter(({ key }) => !kids.includes(key.kid));
  }
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('the token signing keys', () => {
  let now: Date;
  const ring = (
    store: SigningKeyStore,
    options: Partial<ConstructorParameters<typeof SigningKeyRing>[1]> = {},
  ) =>
    new SigningKeyRing(store, {
      rotationMs: 30 * DAY,
      retentionMs: DAY,
      now: () => now,
      generate: async () => newSigningKey(),
      ...options,
    });
  beforeEach(() => {
    now = new Date('2026-11-01T08:00:00Z');
  });

  it('rotates on schedule, keeps the replaced key published for the retention, then deletes it', async () => {
    const store = new MemoryStore();
    const keys = ring(store);
    await keys.start();
    const first = keys.current();
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([first.kid]);

    now = new Date(now.getTime() + 29 * DAY);
    await keys.maintain();
    expect(keys.current().kid).toBe(first.kid);

    now = new Date(now.getTime() + DAY);
    await keys.maintain();
    const second = keys.current();
    expect(second.kid).not.toBe(first.kid);
    // Both verify: sessions signed with the first key go on until they expire.
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([second.kid, first.kid]);
    expect(keys.get(first.kid)).toBeDefined();

    now = new Date(now.getTime() + DAY - 1);
    await keys.maintain();
    expect(keys.get(first.kid)).toBeDefined();
    now = new Date(now.getTime() + 1);
    await keys.maintain();
    expect(keys.get(first.kid)).toBeUndefined();
    expect(keys.jwks().keys.map((k) => k.kid)).toEqual([second.kid]);
    expect(store.keys.map(({ key }) => key.kid)).toEqual([second.kid]);
  });

  it('lets replicas agree: one rotation wins, and the other replica follows the database', async () => {
    const store = new MemoryStore();
    const [a, b] = [ring(store), ring(store)];
    await a.start();
    await b.start();
    expect(b.current().kid).toBe(a.current().kid);

    const rotated = await a.rotate();
    // b has not reloaded yet, but a token naming the new key makes it look.
    expect(b.get(rotated.kid)).toBeUndefined();
    await b.refresh();
    expect(b.get(rotated.kid)).toBeDefined();
    expect(b.current().kid).toBe(rotated.kid);
    // Both rotating at once from the same generation: only one new key is made current.
    await Promise.all([a.rotate(), b.rotate()]);
    await a.maintain();
    await b.maintain();
    expect(a.current().kid).toBe(b.current().kid);
    expect(new Set(store.keys.map((k) => k.generation)).size).toBe(store.keys.length);
  });

  it('takes the operator’s key once and does not rotate it on schedule', async () => {
    const store = new MemoryStore();
    const operatorKey = newSigningKey();
    const keys = ring(store, { operatorKey });
    await keys.start();
    expect(keys.current().kid).toBe(operatorKey.kid);
    now = new Date(now.getTime() + 365 * DAY);
    await keys.maintain();
    expect(keys.current().kid).toBe(operatorKey.kid);
    // An ADMIN's rotation still replaces it, and a restart with the same variable keeps the new key.
    const rotated = await keys.rotate();
    const restarted = ring(store, { operatorKey });
    await restarted.start();
    expect(restarted.current().kid).toBe(rotated.kid);
  });
});
