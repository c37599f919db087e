/**
 * The route flag: bundled by build/route-flag.ts into one classic script inside index.html's <head>,
 * run before the first paint (the gateway's CSP allows it by its hash, and no other inline script).
 *
 * 1. Marks the document with its route, so index.html's pre-rendered first screen of "/", "/dates",
 *    "/login", "/signup" or "/user" shows on that route only (see build/prerender-first-screens.ts);
 *    the account forms, templates until then, are put in place for a visitor without a session (the
 *    app would send one with a session on), the patient area for a patient's session, its
 *    appointment asked at once (first-screen-appointment.ts).
 * 2. On "/dates", fills the pre-rendered calendar with this month at the centre (Atlantic/Canary), in
 *    the markup of web-kit's Calendar, as soon as the parser has inserted it; and completes the
 *    page's introduction with the opening hours and the price once the centre profile arrives
 *    (index.html preloads it), in a new paragraph equal to React's, which then replaces it unseen.
 * 3. Starts the shell's code: on the pre-rendered routes after the first paint, so that nothing
 *    competes with the document for a slow connection before the visitor sees the page; elsewhere
 *    right away. With it, the code of the page at this address (on the busiest routes) or the
 *    remote's entry (on a remote's routes), instead of after the shell's own code has run.
 */
import type { CentreProfile } from '@crm/contracts';
import { CENTRE_PROFILE_URL, type EarlyRequestWindow } from '@crm/web-kit/src/centre/early-request.ts';
import { describeOpeningHours, formatPrice } from '@crm/web-kit/src/centre/format.ts';
import { MONTH_NAMES, WEEKDAY_INITIALS, WEEKDAY_NAMES } from '@crm/web-kit/src/time/calendar-names.ts';
import { BOOKING_INTRO, hoursAndPrice } from '../src/features/booking/booking-intro';
import { fillAppointment, requestAppointment, tokenRole } from './first-screen-appointment';

/** Written in by the build (build/route-flag.ts). */
declare const FROM_BUILD: {
  /** The chunks of a few pages, by path. */
  routeChunks: Record<string, string[]>;
  /** The shell's entry and the modules it starts with; absent in the dev server (Vite's tags stay). */
  startUp?: { entry: string; preloads: string[] };
};

const path = location.pathname.replace(/\/+$/, '') || '/';
const moving = /[?&]cambiar=1(&|$)/.test(location.search);
const token = storedToken();
const route =
  path === '/'
    ? 'home'
    : path === '/dates' && !moving
      ? 'dates'
      : (path === '/login' || path === '/signup') && !token
        ? path.slice(1)
        : path === '/user' && token && tokenRole(token) === 'PACIENT'
          ? 'user'
          : 'app';
document.documentElement.setAttribute('data-route', route);

if (route === 'dates') {
  whenParsed('[data-first-screen-calendar] .wk-calendar__grid', fillCalendar);
  completeIntroduction();
}
if (route === 'login' || route === 'signup') showTemplate(route);
if (route === 'user' && token) {
  const appointment = requestAppointment(token);
  showTemplate(route, () => {
    const card = document.querySelector('[data-first-screen-appointment]');
    if (card) fillAppointment(card, appointment);
  });
}

const remote = /^\/doctor(\/|$)/.test(path) ? 'backoffice' : /^\/onboarding(\/|$)/.test(path) ? 'kiosk' : '';
if (remote) preload(`/mf/${remote}/remoteEntry.js`);
if (route === 'app' || !FROM_BUILD.startUp) startShell();
else afterFirstPaint(startShell);

/** The stored session token (web-kit's token store), if any. */
function storedToken(): string | null {
  try {
    return localStorage.getItem('token');
  } catch {
    return null;
  }
}

/** Puts index.html's template of this route in place once the parser has read all of it. */
function showTemplate(name: string, then?: () => void): void {
  whenParsed(`[data-prerender-end="${name}"]`, (end) => {
    const template = end.previousElementSibling;
    if (template instanceof HTMLTemplateElement) template.replaceWith(template.content);
    then?.();
  });
}

function startShell(): void {
  (FROM_BUILD.routeChunks[path] ?? []).forEach(preload);
  const startUp = FROM_BUILD.startUp;
  if (!startUp) return;
  startUp.preloads.forEach(preload);
  const script = document.createElement('script');
  script.type = 'module';
  script.crossOrigin = '';
  script.src = startUp.entry;
  document.head.appendChild(script);
}

function preload(href: string): void {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.appendChild(link);
}

/**
 * Once the browser reports the first contentful paint (at once in a hidden tab, which paints nothing;
 * after the next frame where paint timing is not supported).
 */
function afterFirstPaint(run: () => void): void {
  if (document.visibilityState === 'hidden') run();
  else if (!PerformanceObserver.supportedEntryTypes?.includes('paint'))
    requestAnimationFrame(() => setTimeout(run, 0));
  else
    new PerformanceObserver((entries, observer) => {
      if (!entries.getEntriesByName('first-contentful-paint').length) return;
      observer.disconnect();
      run();
    }).observe({ type: 'paint', buffered: true });
}

/** Runs `fill` on the element matching `selector` as soon as the parser has inserted it. */
function whenParsed(selector: string, fill: (element: HTMLElement) => void): void {
  const observer = new MutationObserver(() => {
    const element = document.querySelector<HTMLElement>(selector);
    if (!element) return;
    observer.disconnect();
    fill(element);
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
}

/**
 * The profile request, shared with the app (web-kit's getCentreProfile takes it instead of starting
 * its own): credentials included, as index.html's <link rel="preload"> asks, so this reuses its answer.
 */
function completeIntroduction(): void {
  const profile = fetch(CENTRE_PROFILE_URL, { credentials: 'include' })
    // An error's body is read too: left unread, the request would stay open.
    .then((response) =>
      response.ok ? (response.json() as Promise<CentreProfile>) : response.text().then(() => undefined),
    )
    .catch(() => undefined);
  (window as EarlyRequestWindow).crmCentreProfile = profile;
  whenParsed('[data-first-screen-intro]', (intro) => {
    void profile.then((known) => {
      // Gone once React has rendered the page, which says the same.
      if (!known || !intro.isConnected) return;
      const complete = document.createElement('p');
      complete.textContent =
        BOOKING_INTRO +
        hoursAndPrice(
          describeOpeningHours(known.openingHours),
          formatPrice(known.prices.checkUp, known.prices.currency),
        );
      intro.replaceWith(complete);
    });
  });
}

/** The grid of the calendar comes after its title: both are there. */
function fillCalendar(grid: HTMLElement): void {
  const title = grid.parentElement?.querySelector('.wk-calendar__title');
  if (!title) return;
  let today: string;
  try {
    // "2026-11-27": the centre's date, whatever the browser's zone.
    today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Atlantic/Canary' }).format(new Date());
  } catch {
    return; // no time-zone support: the app draws the calendar when it starts
  }
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  const leading = new Date(Date.UTC(year, month, 1)).getUTCDay();
  const count = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  title.textContent = `${MONTH_NAMES[month]} ${year}`;

  let html = '';
  for (let weekday = 0; weekday < 7; weekday++)
    html += `<abbr class="wk-calendar__weekday" title="${WEEKDAY_NAMES[weekday]}">${WEEKDAY_INITIALS[weekday]}</abbr>`;
  for (let blank = 0; blank < leading; blank++) html += '<span aria-hidden="true"></span>';
  for (let date = 1; date <= count; date++) {
    const day = `${today.slice(0, 8)}${date < 10 ? '0' : ''}${date}`;
    const weekday = (leading + date - 1) % 7;
    const classes =
      'wk-calendar__day' +
      (weekday === 0 || weekday === 6 ? ' wk-calendar__day--weekend' : '') +
      (day === today ? ' wk-calendar__day--today' : '');
    const label = `${WEEKDAY_NAMES[weekday]}, ${date} de ${MONTH_NAMES[month].toLowerCase()} de ${year}`;
    html += `<button type="button" class="${classes}"${day < today ? ' disabled' : ''} aria-pressed="false" aria-label="${label}" data-day="${day}">${date}</button>`;
  }
  grid.innerHTML = html;
}
