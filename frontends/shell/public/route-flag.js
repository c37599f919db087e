/* Marks the document as the home page before the first paint, so index.html's pre-rendered home
   screen shows on "/" only (see build/prerender-home.ts). Kept tiny: it blocks rendering.
   On a remote's routes it also starts fetching that remote's entry right away, instead of after the
   shell's own code has run (one round trip less on a slow connection). */
(function () {
  var path = location.pathname;
  document.documentElement.setAttribute('data-route', path === '/' ? 'home' : 'app');
  var remote = /^\/doctor(\/|$)/.test(path) ? 'backoffice' : /^\/onboarding(\/|$)/.test(path) ? 'kiosk' : '';
  if (!remote) return;
  var link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = '/mf/' + remote + '/remoteEntry.js';
  document.head.appendChild(link);
})();
