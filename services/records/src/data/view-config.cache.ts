import type { ViewConfigView } from '@crm/contracts';
import type { Caller, ViewConfigSource } from '../domain/record';

interface Entry {
  config: ViewConfigView;
  expiresAt: number;
}

/**
 * The current configuration of each view, in memory: fetched from the config service on first use,
 * dropped when `config.view.updated.v1` announces a newer version, and after `ttlMs` in any case
 * (in case an event is lost). A fetch that was under way when an update was announced is not
 * kept, so an old version can never be cached after its replacement was announced.
 */
export class ViewConfigCache implements ViewConfigSource {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every announcement; a fetch started under an older generation is not stored. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly source: ViewConfigSource,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async current(view: string, caller: Caller): Promise<ViewConfigView> {
    const cached = this.entries.get(view);
    if (cached && cached.expiresAt > this.now()) return cached.config;
    const generation = this.generations.get(view) ?? 0;
    const config = await this.source.current(view, caller);
    if ((this.generations.get(view) ?? 0) === generation && this.ttlMs > 0) {
      this.entries.set(view, { config, expiresAt: this.now() + this.ttlMs });
    }
    return config;
  }

  /** A newer version of `view` exists: forget what is cached unless it is that version already. */
  invalidate(view: string, version: number): void {
    this.generations.set(view, (this.generations.get(view) ?? 0) + 1);
    const cached = this.entries.get(view);
    if (cached && cached.config.version < version) this.entries.delete(view);
  }

  /** For tests and diagnostics: the version cached for a view, if any. */
  cachedVersion(view: string): number | undefined {
    return this.entries.get(view)?.config.version;
  }
}
