/* Marks the document as the home page before the first paint, so index.html's pre-rendered home
   screen shows on "/" only (see build/prerender-home.ts). Kept tiny: it blocks rendering. */
document.documentElement.setAttribute('data-route', location.pathname === '/' ? 'home' : 'app');
