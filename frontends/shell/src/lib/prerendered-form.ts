import { useLayoutEffect } from 'react';

/**
 * index.html carries static copies of the sign-in and sign-up forms (build/prerender-first-screens.ts),
 * so a visitor on a slow phone may be typing before the app's code has arrived. React replaces the
 * copy when the page mounts; what was typed and the field the visitor was in pass to the page's own
 * form in the same task, so no keystroke lands on a removed input.
 */
let early =
  typeof document === 'undefined'
    ? null
    : // The copy shown: the route flag marked the document with its route ("login", "signup").
      document.querySelector<HTMLFormElement>(
        `form[data-prerendered-form="${document.documentElement.dataset.route ?? ''}"]`,
      );
// The visitor may be in a field already: this code arrives after the copy has been in use.
let focused =
  early && document.activeElement instanceof HTMLInputElement && early.contains(document.activeElement)
    ? document.activeElement
    : null;

early?.addEventListener('focusin', (event) => {
  if (event.target instanceof HTMLInputElement) focused = event.target;
});
early?.addEventListener('focusout', (event) => {
  const input = event.target;
  // Left for something else on the page, not taken away with the copy (checked once that is known).
  setTimeout(() => {
    if (focused && input === focused && focused.isConnected && document.activeElement !== focused)
      focused = null;
  });
});

/**
 * Takes over what was typed into the pre-rendered copy of the form `name` ("login", "signup"):
 * `setters` by input name. Once, on the page's first mount; nothing when the copy was not shown.
 */
export function useTypedBeforeStart(name: string, setters: Record<string, (value: string) => void>): void {
  useLayoutEffect(() => {
    if (!early || early.dataset.prerenderedForm !== name || early.isConnected) return;
    const copy = early;
    early = null; // a later visit to the page starts empty
    for (const input of copy.querySelectorAll<HTMLInputElement>('input[name]')) {
      if (input.value) setters[input.name]?.(input.value);
    }
    const field = focused?.name;
    focused = null;
    if (field && (document.activeElement === document.body || !document.activeElement)) {
      document.querySelector<HTMLInputElement>(`#main form input[name="${field}"]`)?.focus();
    }
    // Runs once: the setters are state setters, stable across renders.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
