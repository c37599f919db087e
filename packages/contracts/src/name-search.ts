import { nationalDigitsOf } from './phone';

/**
 * How names are searched everywhere (servers store this key, front ends filter by it): "Álvaro
 * Núñez " → "alvaro nunez", so a search finds a name whatever its accents and case.
 */
export const foldName = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

/** A user's search text as a literal inside a regular expression (no operators, no ReDoS). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Characters of a word that count in a server search: longer words are stored and looked up by
 * their first `SEARCH_KEY_LENGTH` characters, so "rodriguezfernandez1" finds its own address.
 */
export const SEARCH_KEY_LENGTH = 16;

/** A search text that is a phone number as typed ("612 34", "+34 612"): only digits and punctuation. */
export const PHONE_LIKE = /^[\d\s+().-]+$/;

/** The words of a text as search sees them: folded, split at anything but a letter or a digit. */
const wordsOf = (text: string): string[] =>
  foldName(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((word) => word.slice(0, SEARCH_KEY_LENGTH));

const startsOf = (word: string): string[] => [...word].map((_, i) => word.slice(0, i + 1));

/**
 * The keys a server stores with a searchable document (`searchKeys`, under an index): every start
 * of every word of its texts (name, e-mail address: "maria.garcia@x.es" has the words maria,
 * garcia, x, es) and every start of its phone, with and without the country code. A search then
 * costs one index lookup, whatever the collection's size; a regular expression reads it all.
 */
export function searchKeysOf(texts: Array<string | undefined>, phone?: string): string[] {
  const keys = new Set<string>();
  for (const text of texts)
    for (const word of wordsOf(text ?? '')) startsOf(word).forEach((k) => keys.add(k));
  if (phone)
    for (const digits of [phone, nationalDigitsOf(phone)]) startsOf(digits).forEach((k) => keys.add(k));
  return [...keys];
}

/**
 * What a search text looks for: the keys a document must all have (`searchKeysOf`). Each word
 * is the start of a word of the name or the e-mail address, in any order ("garcia mar" finds
 * "María García"); a text like a phone number is the start of the phone, as typed ("612 34",
 * "+34 612"). Empty when there is nothing to look for.
 */
export function searchTermsOf(search: string): string[] {
  if (PHONE_LIKE.test(search)) {
    // "0034 612" is typed as "+34 612": the international prefix is not stored.
    const digits = search.replace(/\D/g, '').replace(/^00/, '');
    if (digits) return [digits.slice(0, PHONE_KEY_LENGTH)];
  }
  return [...new Set(wordsOf(search))];
}

/** Phones are keyed whole (E.164: at most 15 digits). */
const PHONE_KEY_LENGTH = 15;
