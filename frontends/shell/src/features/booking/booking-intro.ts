/**
 * The booking page's introduction: React's page and index.html's first screen of "/dates" (written by
 * the build, completed by inline/route-flag.ts) say the same. No imports: the Vite config reads it.
 */
export const BOOKING_INTRO = 'Elija un día y una hora libre.';

/** …when the patient moves the appointment they have. */
export const MOVING_INTRO =
  'Elija el nuevo día y la nueva hora: su cita actual se mantiene hasta que confirme la nueva.';

/** What follows the introduction once the centre profile is known, around its two facts. */
export const HOURS_AND_PRICE = [
  ' Atendemos ',
  ' (hora de Canarias). El reconocimiento cuesta ',
  '.',
] as const;

/** The facts' stand-ins while the profile loads: about as wide as usual values, so little moves. */
export const FACT_WIDTHS = { hours: '23em', price: '2.5em' } as const;

/** The sentence with the facts (opening hours and price as printed). */
export const hoursAndPrice = (openingHours: string, price: string) =>
  `${HOURS_AND_PRICE[0]}${openingHours}${HOURS_AND_PRICE[1]}${price}${HOURS_AND_PRICE[2]}`;
