/**
 * The booking page's introduction: React's page and index.html's first screen of "/dates" (written by
 * the build, completed by inline/route-flag.ts) say the same. No imports: the Vite config reads it.
 */
export const BOOKING_INTRO = 'Elija un día y una hora libre.';

/** …when the patient moves the appointment they have. */
export const MOVING_INTRO =
  'Elija el nuevo día y la nueva hora: su cita actual se mantiene hasta que confirme la nueva.';

/** What follows the introduction once the centre profile is known (hours and price as printed). */
export const hoursAndPrice = (openingHours: string, price: string) =>
  ` Atendemos ${openingHours} (hora de Canarias). El reconocimiento cuesta ${price}.`;
