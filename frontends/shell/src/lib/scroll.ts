/** In-page scroll and menu animations last 500 ms (docs/product/booking.md#header-and-menus). */
export const ANIMATION_MS = 500;
/** The header becomes sticky past this scroll offset. */
export const STICKY_OFFSET = 116;
/** Scroll-spy throttle. */
export const SCROLL_SPY_THROTTLE_MS = 66;

const reducedMotion = (): boolean =>
  typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

const easeInOut = (t: number): number => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/** Scrolls to an element (or the top) in 500 ms, then moves keyboard focus to it. */
export function scrollToSection(id: string | null, offset = 72): void {
  const target = id ? document.getElementById(id) : null;
  const to = target ? Math.max(0, target.getBoundingClientRect().top + window.scrollY - offset) : 0;
  const focus = () => {
    if (target) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    }
  };
  if (reducedMotion()) {
    window.scrollTo(0, to);
    focus();
    return;
  }
  const from = window.scrollY;
  const start = performance.now();
  const step = (now: number) => {
    const t = Math.min(1, (now - start) / ANIMATION_MS);
    window.scrollTo(0, from + (to - from) * easeInOut(t));
    if (t < 1) requestAnimationFrame(step);
    else focus();
  };
  requestAnimationFrame(step);
}

/** Calls fn at most once per `ms` (trailing call kept). */
export function throttle(fn: () => void, ms: number): () => void {
  let last = 0;
  let timer: number | undefined;
  return () => {
    const now = Date.now();
    const wait = ms - (now - last);
    if (wait <= 0) {
      last = now;
      fn();
    } else if (timer === undefined) {
      timer = window.setTimeout(() => {
        timer = undefined;
        last = Date.now();
        fn();
      }, wait);
    }
  };
}
