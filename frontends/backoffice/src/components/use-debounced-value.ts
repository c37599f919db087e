import { useEffect, useState } from 'react';

/** Search boxes wait 500 ms after the last key (docs/product/back-office.md#tables). */
export const SEARCH_DEBOUNCE_MS = 500;

/** `value`, but only once it has stopped changing for `delay` ms (search boxes). */
export function useDebouncedValue<T>(value: T, delay: number = SEARCH_DEBOUNCE_MS): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/**
 * A search box's state: `search` follows every keystroke (bind it to the input), `debouncedSearch`
 * settles 500 ms after the last one (use it to filter or to query the server).
 */
export function useDebouncedSearch(initial = '', delay: number = SEARCH_DEBOUNCE_MS) {
  const [search, setSearch] = useState(initial);
  const debouncedSearch = useDebouncedValue(search, delay);
  return { search, setSearch, debouncedSearch };
}
