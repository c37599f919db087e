import type { KeyObject } from 'node:crypto';
import type { Logger } from './logger';
import { JWKS_PATH, publicKeysOf } from './signing-keys';

/** The public keys a deployable verifies session tokens with. */
export interface VerificationKeys {
  /** The key named `kid`, if it is known now (synchronous: the gateway's hot path). */
  get(kid: string): KeyObject | undefined;
  /** Learns the keys again; resolves false when their source could not be reached. */
  refresh(): Promise<boolean>;
}

/** A fixed set of public keys (`JWT_PUBLIC_KEYS`, a JWKS document): nothing more to learn. */
export class StaticKeys implements VerificationKeys {
  constructor(private readonly keys: ReadonlyMap<string, KeyObject>) {}

  static fromJwks(document: string | unknown): StaticKeys {
    return new StaticKeys(publicKeysOf(typeof document === 'string' ? JSON.parse(document) : document));
  }

  get(kid: string): KeyObject | undefined {
    return this.keys.get(kid);
  }

  refresh(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

/**
 * Runs `load` at most once per `minIntervalMs`: callers arriving meanwhile share the run under way
 * or the next one, so a flood of tokens naming made-up keys costs the key source one look-up per
 * interval, and a real new key still waits at most one interval.
 */
export function throttledRefresh(
  load: () => Promise<boolean>,
  minIntervalMs: number,
): () => Promise<boolean> {
  let lastStart = -Infinity;
  let pending: Promise<boolean> | undefined;
  return () => {
    pending ??= new Promise<boolean>((resolve) => {
      const wait = Math.max(0, lastStart + minIntervalMs - Date.now());
      setTimeout(() => {
        lastStart = Date.now();
        load()
          .catch(() => false)
          .then((reached) => {
            pending = undefined;
            resolve(reached);
          });
      }, wait).unref();
    });
    return pending;
  };
}

export interface RemoteKeysOptions {
  logger?: Logger;
  /** At most one look-up per this many ms (default 1000). */
  minIntervalMs?: number;
  /** Keys older than this are looked up again in the background, so withdrawn keys go (default 10 min). */
  maxAgeMs?: number;
  timeoutMs?: number;
}

/**
 * The auth service's JWKS (`<AUTH_SERVICE_URL>/auth/.well-known/jwks.json`), cached: looked up at
 * start, again on the first token naming an unknown `kid`, and in the background once it is old.
 * Each successful look-up replaces the whole set (a key the auth service stopped publishing goes).
 */
export class RemoteKeys implements VerificationKeys {
  private keys: ReadonlyMap<string, KeyObject> = new Map();
  private fetchedAt = -Infinity;
  readonly refresh: () => Promise<boolean>;
  private readonly maxAgeMs: number;

  constructor(
    readonly url: string,
    private readonly options: RemoteKeysOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 600_000;
    this.refresh = throttledRefresh(() => this.load(), options.minIntervalMs ?? 1000);
  }

  static forAuthService(authServiceUrl: string, options?: RemoteKeysOptions): RemoteKeys {
    return new RemoteKeys(`${authServiceUrl.replace(/\/+$/, '')}${JWKS_PATH}`, options);
  }

  get(kid: string): KeyObject | undefined {
    if (Date.now() - this.fetchedAt > this.maxAgeMs) void this.refresh();
    return this.keys.get(kid);
  }

  private async load(): Promise<boolean> {
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 3000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.keys = publicKeysOf(await response.json());
      this.fetchedAt = Date.now();
      return true;
    } catch (error) {
      this.options.logger?.warn({ url: this.url, err: (error as Error).message }, 'token keys not reachable');
      return false;
    }
  }
}

/** What a deployable reads to know whom to trust (see serviceEnvSchema). */
export interface VerifierEnv {
  AUTH_SERVICE_URL?: string;
  JWT_PUBLIC_KEYS?: string;
}

/** Fixed keys when `JWT_PUBLIC_KEYS` is given (stacks without the auth service), else the auth service's JWKS. */
export function verificationKeysFor(env: VerifierEnv, logger?: Logger): VerificationKeys | undefined {
  if (env.JWT_PUBLIC_KEYS) return StaticKeys.fromJwks(env.JWT_PUBLIC_KEYS);
  if (env.AUTH_SERVICE_URL) return RemoteKeys.forAuthService(env.AUTH_SERVICE_URL, { logger });
  return undefined;
}
