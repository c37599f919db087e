/* Inlined into index.html's <head> by build/prerender-first-screens.ts and run before the first
   paint, so kept small (the gateway's CSP allows this script by its hash, and no other inline one).
   1. Marks the document with its route, so index.html's pre-rendered first screen of "/" or "/dates"
      shows on that route only (see build/prerender-first-screens.ts).
   2. On "/dates", fills the pre-rendered calendar with this month at the centre (Atlantic/Canary),
      in the markup of web-kit's Calendar, as soon as the parser has inserted it.
   3. Starts fetching the code of the page at this address right away, instead of after the shell's
      own code has run: the page's chunks on the busiest routes, the remote's entry on a remote's
      routes (one round trip less on a slow connection).
   FROM_BUILD is written in by the build: the calendar's names (web-kit's) and the pages' chunks. */
(function () {
  var FROM_BUILD = {};
  var path = location.pathname.replace(/\/+$/, '') || '/';
  var moving = /[?&]cambiar=1(&|$)/.test(location.search);
  var route = path === '/' ? 'home' : path === '/dates' && !moving ? 'dates' : 'app';
  document.documentElement.setAttribute('data-route', route);
  if (route === 'dates') fillCalendarWhenParsed();

  var remote = /^\/doctor(\/|$)/.test(path) ? 'backoffice' : /^\/onboarding(\/|$)/.test(path) ? 'kiosk' : '';
  if (remote) preload('/mf/' + remote + '/remoteEntry.js');
  (FROM_BUILD.routeChunks[path] || []).forEach(preload);

  function preload(href) {
    var link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.appendChild(link);
  }

  function fillCalendarWhenParsed() {
    var observer = new MutationObserver(function () {
      var calendar = document.querySelector('[data-first-screen-calendar]');
      var grid = calendar && calendar.querySelector('.wk-calendar__grid');
      if (!grid) return;
      observer.disconnect();
      fillCalendar(calendar, grid);
    });
    observer.observe(document.documentElement, { childList: true, subtree: true });
  }

  function fillCalendar(calendar, grid) {
    var MONTHS = FROM_BUILD.months;
    var WEEKDAYS = FROM_BUILD.weekdays;
    var today;
    try {
      // "2026-11-27": the centre's date, whatever the browser's zone.
      today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Atlantic/Canary' }).format(new Date());
    } catch {
      return; // no time-zone support: the app draws the calendar when it starts
    }
    var year = Number(today.slice(0, 4));
    var month = Number(today.slice(5, 7)) - 1;
    var leading = new Date(Date.UTC(year, month, 1)).getUTCDay();
    var count = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
    calendar.querySelector('.wk-calendar__title').textContent = MONTHS[month] + ' ' + year;

    var html = '';
    for (var w = 0; w < 7; w++) {
      html +=
        '<abbr class="wk-calendar__weekday" title="' +
        WEEKDAYS[w] +
        '">' +
        FROM_BUILD.weekdayInitials[w] +
        '</abbr>';
    }
    for (var b = 0; b < leading; b++) html += '<span aria-hidden="true"></span>';
    for (var date = 1; date <= count; date++) {
      var day = today.slice(0, 8) + (date < 10 ? '0' : '') + date;
      var weekday = (leading + date - 1) % 7;
      var classes =
        'wk-calendar__day' +
        (weekday === 0 || weekday === 6 ? ' wk-calendar__day--weekend' : '') +
        (day === today ? ' wk-calendar__day--today' : '');
      html +=
        '<button type="button" class="' +
        classes +
        '"' +
        (day < today ? ' disabled' : '') +
        ' aria-pressed="false" aria-label="' +
        WEEKDAYS[weekday] +
        ', ' +
        date +
        ' de ' +
        MONTHS[month].toLowerCase() +
        ' de ' +
        year +
        '" data-day="' +
        day +
        '">' +
        date +
        '</button>';
    }
    grid.innerHTML = html;
  }
})();
