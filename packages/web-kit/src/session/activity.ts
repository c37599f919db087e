/**
 * When the person last pressed a key, clicked, scrolled or touched the page. Every API call sends
 * the time since then (`X-Idle-Ms`), so the gateway can end a staff session left alone for too long
 * (docs/product/rights-and-access-trail.md#sessions) while the page's own refreshes do not count as activity.
 */
let lastActivity = Date.now();
let tracking = false;

const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel', 'touchstart'] as const;

/** Starts listening (once per page). */
export function trackActivity(): void {
  if (tracking || typeof window === 'undefined') return;
  tracking = true;
  const touch = () => {
    lastActivity = Date.now();
  };
  for (const type of ACTIVITY_EVENTS) window.addEventListener(type, touch, { capture: true, passive: true });
}

/** Milliseconds since the person last did something on the page. */
export const idleMs = (): number => Math.max(0, Date.now() - lastActivity);
