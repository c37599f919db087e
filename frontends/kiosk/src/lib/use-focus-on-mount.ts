import { useEffect, useRef } from 'react';

/**
 * Moves the focus into a step when it appears (its first field, else the element itself), so the
 * on-screen keyboard and screen readers follow the flow without an extra touch.
 */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    const target = root.querySelector<HTMLElement>('input, [data-autofocus]') ?? root;
    target.focus({ preventScroll: true });
  }, []);
  return ref;
}
