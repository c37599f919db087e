/**
 * Texts of the landing page's first screen; also pre-rendered into index.html (build/prerender-first-screens.ts),
 * which is why this module imports nothing. No fact of the centre profile here (brand, town, prices):
 * those come from `GET /config/centre` and the static copy cannot know them.
 */
export const HERO = {
  eyebrow: 'Centro de reconocimiento de conductores y aptitud psicofísica',
  title: 'Su certificado médico oficial, en el día y sin esperas',
  text: 'Reconocimientos para conducir, armas, embarcaciones, seguridad privada y más. Reserve su cita en línea en menos de un minuto.',
  cta: 'Reservar Cita',
  secondary: 'Ver certificados',
} as const;
