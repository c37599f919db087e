import * as CookieConsent from 'vanilla-cookieconsent';
import 'vanilla-cookieconsent/dist/cookieconsent.css';
import './cookie-consent.css';

/**
 * Cookie consent (docs/product/booking.md#cookie-consent): cookie `cc_cookie` for 182 days on path /,
 * SameSite Lax, Secure on https; only the "necessary" category (read-only, always on) under which the
 * analytics tag loader and the social-media pixel are declared; consent box bottom right, preferences on the
 * left; default language "en" carrying the Spanish strings.
 */
/** A control a person may be typing into (or choosing in) at the moment the banner appears. */
function isEditing(element: Element | null): boolean {
  if (!element || element.closest('#cc-main')) return false;
  return (
    element instanceof HTMLInputElement ||
    element instanceof HTMLTextAreaElement ||
    element instanceof HTMLSelectElement ||
    (element instanceof HTMLElement && element.isContentEditable)
  );
}

/**
 * The library moves the focus to a `tabindex=-1` box of the banner 100 ms after showing it and again
 * when its fade-in ends: on a first visit that took the keyboard away from a field being typed into
 * (an e-mail typed at a normal pace kept its first three letters). While a field has the focus, that
 * automatic focus is skipped; keyboard users still reach the banner's buttons with Tab.
 */
function keepTypingFocus(modal: HTMLElement): void {
  for (const box of modal.querySelectorAll<HTMLElement>('[tabindex="-1"]')) {
    const focus = box.focus.bind(box);
    box.focus = (options?: FocusOptions) => {
      if (!isEditing(document.activeElement)) focus(options);
    };
  }
}

export const COOKIE_CONSENT_CONFIG: CookieConsent.CookieConsentConfig = {
  // Shown to automated browsers too (tests, audits): they must see what a visitor sees.
  hideFromBots: false,
  cookie: {
    name: 'cc_cookie',
    expiresAfterDays: 182,
    path: '/',
    sameSite: 'Lax',
    secure: window.location.protocol === 'https:',
  },
  onModalReady: ({ modalName, modal }) => {
    if (modalName === 'consentModal') keepTypingFocus(modal);
  },
  guiOptions: {
    consentModal: { layout: 'box', position: 'bottom right', equalWeightButtons: true },
    preferencesModal: { layout: 'bar', position: 'left', equalWeightButtons: true },
  },
  categories: {
    necessary: {
      enabled: true,
      readOnly: true,
      services: {
        gtag: { label: 'Etiqueta de Google (medición de conversiones)' },
        pixel: { label: 'Píxel de publicidad en redes sociales' },
      },
    },
  },
  language: {
    default: 'en',
    translations: {
      en: {
        consentModal: {
          title: 'Configuración de privacidad',
          description:
            'Usamos cookies necesarias para que el sitio funcione y para medir las reservas de cita. Puede aceptarlas, rechazar las opcionales o gestionar sus preferencias.',
          acceptAllBtn: 'Aceptar todas',
          acceptNecessaryBtn: 'Rechazar todas',
          showPreferencesBtn: 'Gestionar preferencias',
          footer: '<a href="/privacy-policy">Política de Privacidad</a>',
        },
        preferencesModal: {
          title: 'Configuración de privacidad',
          acceptAllBtn: 'Aceptar todas',
          acceptNecessaryBtn: 'Rechazar todas',
          savePreferencesBtn: 'Guardar preferencias',
          closeIconLabel: 'Cerrar',
          serviceCounterLabel: 'Servicio|Servicios',
          sections: [
            {
              title: 'Uso de cookies',
              description:
                'Este sitio solo utiliza cookies necesarias. Puede consultar los detalles en nuestra <a href="/privacy-policy">Política de Privacidad</a>.',
            },
            {
              title: 'Cookies necesarias <span class="pm__badge">Siempre activas</span>',
              description:
                'Imprescindibles para el funcionamiento del sitio: guardan su elección de privacidad y permiten medir las conversiones de las campañas (etiqueta de Google y píxel de redes sociales).',
              linkedCategory: 'necessary',
            },
            {
              title: 'Más información',
              description: 'Para cualquier duda sobre nuestra política de cookies, contacte con nosotros.',
            },
          ],
        },
      },
    },
  },
};

export function runCookieConsent(): Promise<void> {
  return CookieConsent.run(COOKIE_CONSENT_CONFIG);
}

export function showPreferences(): void {
  CookieConsent.showPreferences();
}
