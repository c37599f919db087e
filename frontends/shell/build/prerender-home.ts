import type { Plugin } from 'vite';
import { HERO } from '../src/features/landing/hero-content.ts';
import { SITE } from '../src/lib/site.ts';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The first screen of "/" (header and hero) as static HTML inside #root, with the same markup and
 * classes React renders, so the landing page paints as soon as the HTML and CSS arrive instead of
 * after the JavaScript (React replaces it, identical, when it mounts). index.html is also the SPA
 * fallback of every other route, so the copy is shown only when public/route-flag.js (a tiny
 * render-blocking script: the CSP allows no inline script) has marked the document as "/".
 */
export function homeMarkup(): string {
  const e = escape;
  return `<div class="layout layout--home prerender-home">
  <header class="site-header site-header--light site-header--overlay">
    <div class="site-header__top">
      <a class="site-header__contact" href="${e(SITE.phoneHref)}"><img src="/assets/icons/phone.svg" alt="" width="18" height="18"><span><span class="wk-visually-hidden">Teléfono: </span>${e(SITE.phoneDisplay)}</span></a>
      <a class="site-header__contact" href="${e(SITE.mapsUrl)}" target="_blank" rel="noopener noreferrer"><img src="/assets/icons/location.svg" alt="" width="18" height="18"><span><span class="wk-visually-hidden">Dirección (abre un mapa en una pestaña nueva): </span>${e(SITE.address)}</span></a>
    </div>
    <div class="site-header__slot"><div class="site-header__bar">
      <a class="brand" href="/"><img class="brand__logo" src="/assets/images/logo.png" alt="" width="52" height="52"><span class="brand__text"><span class="brand__title">${e(SITE.title)}</span><span class="brand__subtitle">${e(SITE.subtitle)}</span></span></a>
    </div></div>
  </header>
  <main class="layout__main"><div class="landing">
    <section class="hero" aria-labelledby="prerender-hero-title"><div class="hero__inner">
      <p class="hero__eyebrow">${e(HERO.eyebrow)}</p>
      <h1 id="prerender-hero-title" class="hero__title">${e(HERO.title)}</h1>
      <p class="hero__text">${e(HERO.text)}</p>
      <div class="hero__actions"><a class="wk-button hero__cta" href="/dates">${e(HERO.cta)}</a></div>
    </div></section>
  </div></main>
</div>`;
}

export function prerenderHome(): Plugin {
  return {
    name: 'crm:prerender-home',
    transformIndexHtml: {
      // After Vite's own tags, so the preload scanner meets the stylesheet and modules first.
      order: 'post',
      handler: (html) =>
        html
          .replace('<div id="root"></div>', `<div id="root">${homeMarkup()}</div>`)
          .replace('</head>', '  <script src="/route-flag.js"></script>\n  </head>'),
    },
  };
}
