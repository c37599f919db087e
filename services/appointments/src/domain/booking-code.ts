import { randomInt } from 'node:crypto';
import { BOOKING_CODE_ALPHABET, BOOKING_CODE_LENGTH, isBookingCode } from '@crm/contracts';

/** Makes the code of a new appointment (a candidate: the database refuses one a live appointment has). */
export type BookingCodes = () => string;

/**
 * A random booking code (docs/product/kiosk.md#proof): 6 characters of an alphabet without
 * look-alikes, at least one of them a letter so it never looks like an e-mailed one-time code.
 */
export const newBookingCode: BookingCodes = () => {
  for (;;) {
    let code = '';
    for (let i = 0; i < BOOKING_CODE_LENGTH; i++)
      code += BOOKING_CODE_ALPHABET[randomInt(BOOKING_CODE_ALPHABET.length)];
    if (isBookingCode(code)) return code;
  }
};
