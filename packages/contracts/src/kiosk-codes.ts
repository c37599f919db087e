/**
 * The two codes a person shows at the kiosk to prove an account is theirs
 * (docs/product/kiosk.md#proof):
 *
 * - the **booking code** of their appointment: 6 characters from an alphabet without look-alikes
 *   (none of B D G I L O Q S U V Z 0 1), with at least one letter, unique among the active
 *   appointments (23⁶ ≈ 148 million codes); printed in the booking e-mail (with its QR code) and shown in the patient area;
 * - the **one-time code** e-mailed on request: 6 digits.
 *
 * So a code's shape says which one it is. No dependencies: the front ends use it too.
 */
export const BOOKING_CODE_ALPHABET = 'ACEFHJKMNPRTWXY23456789';
export const BOOKING_CODE_LENGTH = 6;
export const ONE_TIME_CODE_LENGTH = 6;

const BOOKING_CODE = new RegExp(`^[${BOOKING_CODE_ALPHABET}]{${BOOKING_CODE_LENGTH}}$`);
const ONE_TIME_CODE = new RegExp(`^\\d{${ONE_TIME_CODE_LENGTH}}$`);

/** As typed or scanned ("abc 123", "ABC-123") → as stored ("ABC123"). */
export const normalizeKioskCode = (input: string): string => input.replace(/[\s-]/g, '').toUpperCase();

/** A booking code's shape: alphabet letters and digits, at least one letter. */
export const isBookingCode = (code: string): boolean => BOOKING_CODE.test(code) && /[A-Z]/.test(code);

/** An e-mailed one-time code's shape: 6 digits. */
export const isOneTimeCode = (code: string): boolean => ONE_TIME_CODE.test(code);

/** The 403 of a kiosk call on an account without a matching code (auth and appointments alike). */
export const KIOSK_PROOF_MESSAGES = {
  missing:
    'Para continuar necesitamos el código de su cita o el código que le hemos enviado por correo electrónico',
  wrong: 'El código no es correcto o ha caducado. Compruébelo o pida un código nuevo por correo electrónico',
} as const;
