import type { KeyObject } from 'node:crypto';
import {
  generateSigningKey,
  publicJwkOf,
  throttledRefresh,
  type JwksDocument,
  type SigningKey,
  type VerificationKeys,
} from '@crm/server-kit';

/** A signing key as stored: keys form one line of generations, the highest is the current one. */
export interface StoredSigningKey {
  key: SigningKey;
  generation: number;
  createdAt: Date;
}

export interface SigningKeyStore {
  /** Every stored key, highest generation first. */
  list(): Promise<StoredSigningKey[]>;
  /** False when that generation exists already (another replica rotated first). */
  add(key: StoredSigningKey): Promise<boolean>;
  remove(kids: readonly string[]): Promise<void>;
}

export interface SigningKeyRingOptions {
  /** A key's age at which the scheduled rotation replaces it (0: never). */
  rotationMs: number;
  /** How long a replaced key keeps verifying: at least the longest session it may have signed. */
  retentionMs: number;
  /** The operator's key (`JWT_SIGNING_KEY`): made current once, and no scheduled rotation. */
  operatorKey?: SigningKey;
  now?: () => Date;
  generate?: () => Promise<SigningKey>;
}

/**
 * The auth service's token keys. The database is the truth every replica follows: the current key
 * is the highest generation; a rotation adds the next generation (a unique index lets only one
 * replica win a race) and every replica takes it at its next reload, or at once when it meets a
 * token naming it. A replaced key stays published (JWKS) and accepted for `retentionMs` after its
 * successor appeared, so nobody is signed out by a rotation; then it is deleted.
 */
export class SigningKeyRing implements VerificationKeys {
  private keys: StoredSigningKey[] = [];
  private readonly now: () => Date;
  private readonly generate: () => Promise<SigningKey>;
  /** Reloads from the database, at most once a second however many unknown keys are shown. */
  readonly refresh: () => Promise<boolean>;

  constructor(
    private readonly store: SigningKeyStore,
    private readonly options: SigningKeyRingOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.generate = options.generate ?? (() => generateSigningKey());
    this.refresh = throttledRefresh(async () => {
      await this.reload();
      return true;
    }, 1000);
  }

  /** Loads the keys; makes the first one (or takes the operator's) when needed. */
  async start(): Promise<void> {
    await this.reload();
    const operator = this.options.operatorKey;
    if (operator && !this.keys.some(({ key }) => key.kid === operator.kid)) await this.add(operator);
    else if (this.keys.length === 0) await this.add(await this.generate());
  }

  isReady(): boolean {
    return this.keys.length > 0;
  }

  /** The key new tokens are signed with. */
  current(): SigningKey {
    const newest = this.keys[0];
    if (!newest) throw new Error('token signing keys are not loaded yet');
    return newest.key;
  }

  /** Seconds since the current key was made (metrics: a rotation that stopped happening), if loaded. */
  currentKeyAgeSeconds(): number | undefined {
    const newest = this.keys[0];
    return newest ? Math.max(0, (this.now().getTime() - newest.createdAt.getTime()) / 1000) : undefined;
  }

  get(kid: string): KeyObject | undefined {
    return this.published().find(({ key }) => key.kid === kid)?.key.publicKey;
  }

  /** The public keys others verify with (`GET /auth/.well-known/jwks.json`). */
  jwks(): JwksDocument {
    return { keys: this.published().map(({ key }) => publicJwkOf(key.publicKey)) };
  }

  /** Makes a new current key now (the previous ones keep verifying for `retentionMs`). */
  async rotate(): Promise<SigningKey> {
    await this.add(await this.generate());
    return this.current();
  }

  /** The scheduled work: reload, rotate when the current key is due, delete keys past retention. */
  async maintain(): Promise<void> {
    await this.reload();
    const newest = this.keys[0];
    const { rotationMs, operatorKey } = this.options;
    if (
      newest &&
      rotationMs > 0 &&
      !operatorKey &&
      this.now().getTime() - newest.createdAt.getTime() >= rotationMs
    )
      await this.rotate();
    const published = new Set(this.published());
    const expired = this.keys.filter((stored) => !published.has(stored));
    if (expired.length > 0) {
      await this.store.remove(expired.map(({ key }) => key.kid));
      await this.reload();
    }
  }

  private published(): StoredSigningKey[] {
    const now = this.now().getTime();
    // A key verifies until `retentionMs` after the key that replaced it appeared.
    return this.keys.filter(
      (_stored, index) =>
        index === 0 || this.keys[index - 1]!.createdAt.getTime() + this.options.retentionMs > now,
    );
  }

  private async add(key: SigningKey): Promise<void> {
    const generation = (this.keys[0]?.generation ?? 0) + 1;
    await this.store.add({ key, generation, createdAt: this.now() });
    await this.reload();
  }

  private async reload(): Promise<void> {
    this.keys = await this.store.list();
  }
}
