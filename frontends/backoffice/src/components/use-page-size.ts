import { useSyncExternalStore } from 'react';

/** Lists show more rows when the window is wider than this (docs/product/back-office.md#tables). */
export const WIDE_WINDOW_PX = 768;

function subscribe(onChange: () => void) {
  window.addEventListener('resize', onChange);
  return () => window.removeEventListener('resize', onChange);
}

const isWide = () => window.innerWidth > WIDE_WINDOW_PX;

/** True while the window is wider than 768 px (follows resizes). */
export function useIsWideWindow(): boolean {
  return useSyncExternalStore(subscribe, isWide, () => true);
}

/** A list's page size: `wide` when the window is wider than 768 px, else `narrow`. */
export function usePageSize(wide: number, narrow: number): number {
  return useIsWideWindow() ? wide : narrow;
}
