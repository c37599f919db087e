import { formatPhone, formatPhoneInput as formatTypedPhone, normalizePhone } from '@crm/contracts/phone';

/**
 * Phone inputs and displays of every front end (docs/product/README.md#phone-numbers). The rule itself lives
 * once, in `@crm/contracts` (`packages/contracts/src/phone.ts`), shared with the server's validation; this
 * module only gives it the names the front ends use.
 */

/**
 * The text of a phone input after a keystroke or a paste: "+34 699 111 222" whether typed as
 * "+34 699 111 222", "0034 699 111 222" or "699111222", character by character or at once.
 */
export const formatPhoneInput = (value: string): string => formatTypedPhone(value);

/**
 * What is sent to the server: the stored form (digits with the country code, "34699111222") when
 * the value is a phone, else its bare digits, so the server answers with its own message.
 */
export const phoneDigits = (value: string): string => normalizePhone(value) ?? value.replace(/\D/g, '');

/** A stored phone ("34699111222") for display: "+34 699 111 222"; empty when there is none. */
export const displayPhone = (stored: string | undefined | null): string => formatPhone(stored);
