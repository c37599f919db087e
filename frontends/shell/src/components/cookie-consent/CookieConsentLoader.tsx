import { useEffect } from 'react';

let loaded: Promise<typeof import('./cookie-consent')> | null = null;
const load = () => (loaded ??= import('./cookie-consent'));

/** Opens the consent preferences (footer link). */
export function openCookiePreferences(): void {
  void load().then(async (m) => {
    await m.runCookieConsent();
    m.showPreferences();
  });
}

/**
 * Starts the consent banner on every screen. The library is fetched right after the first render,
 * off the critical path of the page itself; once consent exists it shows nothing.
 */
export function CookieConsentLoader() {
  useEffect(() => {
    // Consent already given: nothing to show, nothing to download (until the footer link is used).
    if (document.cookie.split(/;\s*/).some((c) => c.startsWith('cc_cookie='))) return;
    const start = () => void load().then((m) => m.runCookieConsent());
    const timer = window.setTimeout(start, 0);
    return () => window.clearTimeout(timer);
  }, []);
  return null;
}
