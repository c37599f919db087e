import { useCallback, useState } from 'react';
import type { VisibilityState } from '@tanstack/react-table';

function read(key: string | undefined): VisibilityState {
  if (!key) return {};
  try {
    const stored = JSON.parse(window.localStorage.getItem(key) ?? '{}') as unknown;
    if (stored && typeof stored === 'object' && !Array.isArray(stored)) {
      return Object.fromEntries(
        Object.entries(stored).filter(([, visible]) => typeof visible === 'boolean'),
      ) as VisibilityState;
    }
  } catch {
    // A corrupt entry is ignored: every column visible.
  }
  return {};
}

/**
 * Column visibility, kept in `localStorage[key]` when a key is given (one key per list,
 * docs/product/back-office.md#tables), so a hidden column stays hidden after a reload.
 */
export function usePersistedVisibility(key?: string) {
  const [visibility, setVisibilityState] = useState<VisibilityState>(() => read(key));
  const setVisibility = useCallback(
    (update: VisibilityState | ((old: VisibilityState) => VisibilityState)) => {
      setVisibilityState((old) => {
        const next = typeof update === 'function' ? update(old) : update;
        if (key) {
          try {
            window.localStorage.setItem(key, JSON.stringify(next));
          } catch {
            // Storage full or disabled: the choice lasts for this page only.
          }
        }
        return next;
      });
    },
    [key],
  );
  return [visibility, setVisibility] as const;
}
