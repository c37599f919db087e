import { configViewUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { ViewConfigCache } from '../data/view-config.cache';

/** Drops a cached form configuration as soon as the config service announces a newer version. */
export function viewConfigHandlers(cache: ViewConfigCache) {
  return [on(configViewUpdated, (event) => cache.invalidate(event.data.view, event.data.version))] as const;
}
