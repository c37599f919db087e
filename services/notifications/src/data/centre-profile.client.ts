import {
  CENTRE_PROFILE_SEED,
  centreProfileSchema,
  type CentreProfile,
  type CentreProfileData,
} from '@crm/contracts';
import type { Logger } from '@crm/server-kit';

/** What the e-mails need: the centre profile as it is now. */
export interface CentreProfileReader {
  current(): Promise<CentreProfileData>;
}

export interface CentreProfileClientOptions {
  /** Base URL of the config service; the profile is its public `GET /config/centre`. */
  configServiceUrl: string;
  /** How long a profile read is used without asking again; 0 asks for every e-mail. */
  ttlMs: number;
  /** How long to wait for an answer. */
  timeoutMs: number;
  logger?: Logger;
  /** After a failed read, the config service is not asked again for this long. Default 5 s. */
  retryAfterMs?: number;
  now?: () => number;
}

/**
 * The centre profile for the e-mail worker: read from the config service over HTTP, kept in memory
 * for `ttlMs`, and dropped as soon as `config.centre.updated.v1` announces a newer version
 * (`invalidate`). It never fails: when the config service cannot be reached or answers nonsense, the
 * last profile read is used, or the seed (`CENTRE_PROFILE_SEED`) before any, and the config service
 * is asked again after `retryAfterMs` (so a hanging config service delays one e-mail, not each).
 */
export class CentreProfileClient implements CentreProfileReader {
  private known: CentreProfile | undefined;
  private freshUntil = 0;
  private retryAt = 0;
  private announced = 0;
  private pending: Promise<CentreProfileData> | undefined;
  private unreachable = false;
  private readonly url: string;
  private readonly now: () => number;

  constructor(private readonly options: CentreProfileClientOptions) {
    this.url = `${options.configServiceUrl.replace(/\/+$/, '')}/config/centre`;
    this.now = options.now ?? Date.now;
  }

  async current(): Promise<CentreProfileData> {
    const now = this.now();
    if (this.known && this.known.version >= this.announced && now < this.freshUntil) return this.known;
    if (now < this.retryAt) return this.known ?? CENTRE_PROFILE_SEED;
    // Concurrent e-mails share one request.
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** `config.centre.updated.v1`: what is held is stale if older than `version`. */
  invalidate(version: number): void {
    this.announced = Math.max(this.announced, version);
    // The config service may be back: ask it at the next e-mail.
    this.retryAt = 0;
  }

  /** The newest version announced by an event so far (0: none). */
  announcedVersion(): number {
    return this.announced;
  }

  private async read(): Promise<CentreProfileData> {
    try {
      const response = await fetch(this.url, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`config service answered ${response.status}`);
      }
      const profile = centreProfileSchema.parse(await response.json());
      // Never back to an older version (an answer that was under way when a newer one was read).
      if (!this.known || profile.version >= this.known.version) this.known = profile;
      // An answer older than an announced version is used once, not kept: the next e-mail asks again.
      this.freshUntil = this.known.version >= this.announced ? this.now() + this.options.ttlMs : 0;
      if (this.unreachable) this.options.logger?.info('centre profile readable again');
      this.unreachable = false;
      return this.known;
    } catch (error) {
      this.retryAt = this.now() + (this.options.retryAfterMs ?? 5_000);
      if (!this.unreachable)
        this.options.logger?.warn(
          { err: error instanceof Error ? error.message : String(error), version: this.known?.version },
          'centre profile unreadable; e-mails use the last known profile (or the seed)',
        );
      this.unreachable = true;
      return this.known ?? CENTRE_PROFILE_SEED;
    }
  }
}
