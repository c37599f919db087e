import type { IndexHtmlTransformContext, Plugin } from 'vite';
import { HERO } from '../src/features/landing/hero-content.ts';

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The neutral stand-in of a fact of the centre profile (src/components/centre/Placeholder.tsx). */
const placeholder = (width: string): string =>
  `<span class="fact-placeholder" style="width: ${width};" aria-hidden="true">&nbsp;</span>`;

/**
 * The first screen of "/" (header and hero) as static HTML inside #root, with the same markup and
 * classes React renders, so the landing page paints as soon as the HTML and CSS arrive instead of
 * after the JavaScript (React replaces it when it mounts). The centre's facts (brand, phone, address)
 * are not known at build time: they are the placeholders React shows while `GET /config/centre`
 * loads, never a copy that an ADMIN's change would make wrong. index.html is also the SPA
 * fallback of every other route, so the copy is shown only when public/route-flag.js (a tiny
 * render-blocking script: the CSP allows no inline script) has marked the document as "/".
 */
export function homeMarkup(logoUrl: string): string {
  const e = escape;
  return `<div class="layout layout--home prerender-home">
  <header class="site-header site-header--light site-header--overlay">
    <div class="site-header__top">
      <span class="site-header__contact"><img src="/assets/icons/phone.svg" alt="" width="18" height="18">${placeholder('8.5em')}</span>
      <span class="site-header__contact"><img src="/assets/icons/location.svg" alt="" width="18" height="18">${placeholder('22em')}</span>
    </div>
    <div class="site-header__slot"><div class="site-header__bar">
      <a class="brand" href="/"><img class="brand__logo" src="${logoUrl}" alt="" width="52" height="52"><span class="brand__text"><span class="wk-visually-hidden">Inicio</span><span class="brand__title">${placeholder('11em')}</span><span class="brand__subtitle">${placeholder('13em')}</span></span></a>
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

/**
 * The URL the build gave src/assets/logo.png (`/assets/logo-<hash>.png`), so that the static header
 * and React's show the same file; the source path in the dev server, which has no bundle.
 */
function builtLogoUrl({ bundle }: IndexHtmlTransformContext): string {
  const logo = Object.values(bundle ?? {}).find(
    (output) =>
      output.type === 'asset' &&
      output.originalFileNames.some((name) => name.endsWith('src/assets/logo.png')),
  );
  return logo ? `/${logo.fileName}` : '/src/assets/logo.png';
}

export function prerenderHome(): Plugin {
  return {
    name: 'crm:prerender-home',
    transformIndexHtml: {
      // After Vite's own tags, so the preload scanner meets the stylesheet and modules first.
      order: 'post',
      handler: (html, context) =>
        html
          .replace('<div id="root"></div>', `<div id="root">${homeMarkup(builtLogoUrl(context))}</div>`)
          .replace('</head>', '  <script src="/route-flag.js"></script>\n  </head>'),
    },
  };
}
