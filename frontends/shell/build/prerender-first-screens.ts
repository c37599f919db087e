import type { IndexHtmlTransformContext, Plugin } from 'vite';
import { BOOKING_INTRO, FACT_WIDTHS, HOURS_AND_PRICE } from '../src/features/booking/booking-intro.ts';
import { HERO } from '../src/features/landing/hero-content.ts';
import { escapeHtml as escape } from '../inline/escape-html.ts';

/** The neutral stand-in of a fact of the centre profile (src/components/centre/Placeholder.tsx). */
const placeholder = (width: string): string =>
  `<span class="fact-placeholder" style="width: ${width};" aria-hidden="true">&nbsp;</span>`;

/**
 * The site header as React renders it while the centre profile loads: logo, and placeholders for the
 * centre's facts (brand, phone, address), which are not known at build time and are never copied
 * here, or an ADMIN's change would make them wrong. `home`: the light header over the hero.
 */
function headerMarkup(logoUrl: string, home: boolean): string {
  const tone = home ? 'site-header--light site-header--overlay' : 'site-header--dark';
  return `<header class="site-header ${tone}">
    <div class="site-header__top">
      <span class="site-header__contact"><img src="/assets/icons/phone.svg" alt="" width="18" height="18">${placeholder('8.5em')}</span>
      <span class="site-header__contact"><img src="/assets/icons/location.svg" alt="" width="18" height="18">${placeholder('22em')}</span>
    </div>
    <div class="site-header__slot"><div class="site-header__bar">
      <a class="brand" href="/"><img class="brand__logo" src="${logoUrl}" alt="" width="52" height="52"><span class="brand__text"><span class="wk-visually-hidden">Inicio</span><span class="brand__title">${placeholder('11em')}</span><span class="brand__subtitle">${placeholder('13em')}</span></span></a>
    </div></div>
  </header>`;
}

/** The first screen of "/": header and hero. */
export function homeMarkup(logoUrl: string): string {
  const e = escape;
  return `<div class="layout layout--home prerender-home">
  <a class="skip-link" href="#prerender-main-home">Saltar al contenido</a>
  ${headerMarkup(logoUrl, true)}
  <main id="prerender-main-home" class="layout__main" tabindex="-1"><div class="landing">
    <section class="hero" aria-labelledby="prerender-hero-title"><div class="hero__inner">
      <p class="hero__eyebrow">${e(HERO.eyebrow)}</p>
      <h1 id="prerender-hero-title" class="hero__title">${e(HERO.title)}</h1>
      <p class="hero__text">${e(HERO.text)}</p>
      <div class="hero__actions"><a class="wk-button hero__cta" href="/dates">${e(HERO.cta)}</a></div>
    </div></section>
  </div></main>
</div>`;
}

/** The booking page's introduction as React renders it while the centre profile loads. */
const introMarkup = (): string => {
  const [lead, middle, end] = HOURS_AND_PRICE.map(escape);
  return `${escape(BOOKING_INTRO)}${lead}${placeholder(FACT_WIDTHS.hours)}${middle}${placeholder(FACT_WIDTHS.price)}${end}`;
};

/**
 * The first screen of "/dates": header, the page's title and the calendar. The month depends on the
 * day the page is opened, so the calendar's title and days are filled in by inline/route-flag.ts as
 * soon as the parser has inserted them (`data-first-screen-calendar`), with the markup of web-kit's
 * Calendar. Choosing a day needs the app: until it has started, the days do nothing.
 */
export function datesMarkup(logoUrl: string): string {
  return `<div class="layout prerender-dates">
  <a class="skip-link" href="#prerender-main-dates">Saltar al contenido</a>
  ${headerMarkup(logoUrl, false)}
  <main id="prerender-main-dates" class="layout__main" tabindex="-1"><div class="page booking-page">
    <header class="page__header"><h1>Reserve su cita</h1><p data-first-screen-intro>${introMarkup()}</p></header>
    <div class="booking-page__body">
      <section class="wk-calendar" aria-labelledby="prerender-calendar-title" data-first-screen-calendar>
        <div class="wk-calendar__header">
          <button type="button" class="wk-calendar__nav" disabled aria-label="Mes anterior"><span aria-hidden="true">‹</span></button>
          <h2 id="prerender-calendar-title" class="wk-calendar__title" aria-live="polite"></h2>
          <button type="button" class="wk-calendar__nav" disabled aria-label="Mes siguiente"><span aria-hidden="true">›</span></button>
        </div>
        <div class="wk-calendar__grid"></div>
      </section>
      <div><section class="wk-slots" aria-labelledby="prerender-slots-title"><p id="prerender-slots-title" class="wk-slots__hint">Seleccione un día del calendario para ver los horarios disponibles.</p></section></div>
    </div>
  </div></main>
</div>`;
}

interface AuthScreen {
  route: 'login' | 'signup';
  title: string;
  fields: { name: string; label: string; attributes: string; password?: boolean }[];
  submit: string;
  footer: string;
}

/** The sign-in and sign-up forms, as src/features/auth/components renders them. */
const AUTH_SCREENS: AuthScreen[] = [
  {
    route: 'login',
    title: 'Iniciar Sesión',
    fields: [
      { name: 'email', label: 'Correo Electrónico', attributes: 'type="email" autocomplete="email"' },
      {
        name: 'password',
        label: 'Contraseña',
        attributes: 'type="password" autocomplete="current-password"',
        password: true,
      },
    ],
    submit: 'Acceder',
    footer:
      '<p>¿No tiene cuenta? <a href="/signup">Registrarse</a></p><p><a href="/forgot-password">¿Olvidó su contraseña?</a></p>',
  },
  {
    route: 'signup',
    title: 'Registro de Paciente',
    fields: [
      { name: 'name', label: 'Nombre Completo', attributes: 'autocomplete="name"' },
      {
        name: 'phone',
        label: 'Número de Teléfono',
        attributes: 'type="tel" inputmode="tel" autocomplete="tel"',
      },
      { name: 'email', label: 'Correo Electrónico', attributes: 'type="email" autocomplete="email"' },
      {
        name: 'password',
        label: 'Contraseña',
        attributes: 'type="password" autocomplete="new-password" minlength="8"',
        password: true,
      },
    ],
    submit: 'Enviar',
    footer:
      '<p>¿Ya tiene cuenta? <a href="/login">Iniciar Sesión</a>. Al registrarse acepta los <a href="/terms-and-conditions">Términos y Condiciones</a> y la <a href="/privacy-policy">Política de Privacidad</a>.</p>',
  },
];

/**
 * The first screen of "/login" or "/signup": header and the form, ready for typing. Sending it needs
 * the app: until it has started, the submit button is disabled (which also stops Enter from sending
 * the form), and when React replaces the copy, what was typed and the field being typed in carry over
 * (src/lib/prerendered-form.ts).
 */
export function authMarkup(logoUrl: string, screen: AuthScreen): string {
  const fields = screen.fields.map((field) => {
    const id = `prerender-${screen.route}-${field.name}`;
    const input = `<input required id="${id}" class="wk-input" placeholder="${field.label}" name="${field.name}" ${field.attributes}>`;
    const control = field.password
      ? `<div class="wk-password">${input}<button type="button" class="wk-password__toggle" disabled>Mostrar<span class="wk-visually-hidden"> contraseña</span></button></div>`
      : input;
    return `<div class="wk-field"><label class="wk-label" for="${id}">${field.label}</label>${control}<p class="wk-error-line"></p></div>`;
  });
  return `<div class="layout prerender-${screen.route}">
  <a class="skip-link" href="#prerender-main-${screen.route}">Saltar al contenido</a>
  ${headerMarkup(logoUrl, false)}
  <main id="prerender-main-${screen.route}" class="layout__main" tabindex="-1"><div class="auth-page">
    <section class="auth-card" aria-labelledby="prerender-${screen.route}-title">
      <h1 id="prerender-${screen.route}-title" class="auth-card__title">${escape(screen.title)}</h1>
      <form class="auth-card__form" method="post" data-prerendered-form="${screen.route}"><div class="wk-form-alert" role="alert"></div>${fields.join('')}<button type="submit" class="wk-button wk-button--block" disabled>${escape(screen.submit)}</button></form>
      <div class="auth-card__footer">${screen.footer}</div>
    </section>
  </div></main>
</div>`;
}

/** The first screen of the patient area: the appointment card is filled in by the route flag. */
export function userMarkup(logoUrl: string): string {
  return `<div class="layout prerender-user">
  <a class="skip-link" href="#prerender-main-user">Saltar al contenido</a>
  ${headerMarkup(logoUrl, false)}
  <main id="prerender-main-user" class="layout__main" tabindex="-1"><div class="page my-appointment">
    <header class="page__header"><h1>Mi Cita</h1></header>
    <section class="appointment-card" aria-live="polite" aria-busy="true" data-first-screen-appointment><p>Cargando su cita…</p></section>
  </div></main>
</div>`;
}

/**
 * The account forms and the patient area as templates, inert until the route flag puts the one of
 * its route in place (two forms with the same labels in the document would be one too many, even
 * hidden). The marker after each says its template has been parsed whole.
 */
const template = (route: string, markup: string): string =>
  `<template data-prerender="${route}">${markup}</template><i hidden data-prerender-end="${route}"></i>`;

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

/**
 * The first screens of "/", "/dates", "/login", "/signup" and "/user" as static HTML inside #root, with the same markup and classes
 * React renders, so those pages paint as soon as the HTML arrives instead of after the JavaScript
 * (React replaces them when it mounts). index.html is the SPA fallback of every route, so each copy
 * shows only on its own route: the route flag marks the document with `data-route` first, and puts
 * the account form of its route in place.
 */
export function prerenderFirstScreens(): Plugin {
  return {
    name: 'crm:prerender-first-screens',
    transformIndexHtml: {
      order: 'post',
      handler: (html, context) => {
        const logoUrl = builtLogoUrl(context);
        return html.replace(
          '<div id="root"></div>',
          `<div id="root">${homeMarkup(logoUrl)}${datesMarkup(logoUrl)}${AUTH_SCREENS.map((screen) => template(screen.route, authMarkup(logoUrl, screen))).join('')}${template('user', userMarkup(logoUrl))}</div>`,
        );
      },
    },
  };
}
