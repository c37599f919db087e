import { useEffect, useRef } from 'react';

/** What counts as someone using the terminal (touch, mouse, keyboard, on-screen keyboard). */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'input', 'wheel', 'touchstart'] as const;

/**
 * Calls `onIdle` once `delayMs` have passed without any activity on the page; any activity starts the
 * count again. `null` turns it off.
 */
export function useIdleTimeout(delayMs: number | null, onIdle: () => void): void {
  const latest = useRef(onIdle);
  useEffect(() => {
    latest.current = onIdle;
  }, [onIdle]);

  useEffect(() => {
    if (delayMs === null) return;
    const fire = () => latest.current();
    let timer = window.setTimeout(fire, delayMs);
    const restart = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(fire, delayMs);
    };
    const options = { capture: true, passive: true };
    for (const name of ACTIVITY_EVENTS) document.addEventListener(name, restart, options);
    return () => {
      window.clearTimeout(timer);
      for (const name of ACTIVITY_EVENTS) document.removeEventListener(name, restart, options);
    };
  }, [delayMs]);
}
