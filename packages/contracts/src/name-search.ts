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

/** A search text that is a phone number as typed ("612 34", "+34 612"): only digits and punctuation. */
export const PHONE_LIKE = /^[\d\s+().-]+$/;

/** The words of texts as search sees them: folded, split at anything but a letter or a digit. */
export const searchWordsOf = (...texts: Array<string | undefined>): string[] =>
  texts.flatMap((text) =>
    foldName(text ?? '')
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );

/** How long the stored starts of a word and of a phone's national number are. */
const WORD_KEY_LENGTHS = [3, 5];
const PHONE_KEY_LENGTHS = [3, 5, 7, 9];

const startsOf = (text: string, lengths: readonly number[]) =>
  lengths.filter((length) => text.length >= length).map((length) => text.slice(0, length));

/**
 * The keys a server stores with a searchable document (`searchKeys`, under an index): the first
 * three and five characters of each word of its texts (name, e-mail address) and the first three,
 * five, seven and nine digits of its phone without the country code. A search looks one of them up
 * (an equality, which FerretDB hands to PostgreSQL's index; a regular expression it evaluates on
 * every document), then checks what it found (`SearchQuery.matches`). A few short keys: FerretDB
 * decodes a whole document wherever it reads one, so every stored key costs every read of the
 * collection.
 */
export function searchKeysOf({ texts, phone }: Searched): string[] {
  const keys = new Set(searchWordsOf(...texts).flatMap((word) => startsOf(word, WORD_KEY_LENGTHS)));
  if (phone) startsOf(nationalDigitsOf(phone), PHONE_KEY_LENGTHS).forEach((key) => keys.add(key));
  return [...keys];
}

/** What a search looks at in a document (the same for its stored keys and its check). */
export interface Searched {
  texts: Array<string | undefined>;
  phone?: string | null;
}

/** What a search looks at in a person's document (an account, an appointment's patient). */
export const personSearched = (person: { name: string; email: string; phone?: string | null }): Searched => ({
  texts: [person.name, person.email],
  phone: person.phone,
});

/** What a search text looks for. */
export interface SearchQuery {
  /** The text has nothing to look for (".*"): it finds nothing. */
  empty: boolean;
  /** A stored key every match has (`searchKeysOf`), when the text is long enough to have one. */
  lookup?: string;
  /** Whether a document with these texts and phone is found. */
  matches(searched: Searched): boolean;
}

/**
 * A search text as a query: each of its words is the start of a word of one of the texts (the
 * name, or the e-mail address), ignoring case and accents, in any order ("garcia mar" finds María
 * García; "garcia gmail" does not); a text like a phone number is the start of the phone's
 * national number, or of the whole number when typed with its country code ("612 34", "+34 612",
 * "0034 612").
 */
export function searchQueryOf(search: string): SearchQuery {
  if (PHONE_LIKE.test(search) && /\d/.test(search)) {
    const international = /^\s*(\+|00)/.test(search);
    let digits = search.replace(/\D/g, '');
    if (international && digits.startsWith('00')) digits = digits.slice(2);
    const national = international ? nationalDigitsOf(digits) : digits;
    return {
      empty: false,
      lookup: startsOf(national, PHONE_KEY_LENGTHS).at(-1),
      matches: ({ phone }) =>
        !!phone && (international ? phone.startsWith(digits) : nationalDigitsOf(phone).startsWith(national)),
    };
  }
  const terms = [...new Set(searchWordsOf(search))];
  const lookup = terms
    .map((term) => startsOf(term, WORD_KEY_LENGTHS).at(-1))
    .reduce<string | undefined>(
      (best, key) => ((key?.length ?? 0) > (best?.length ?? 0) ? key : best),
      undefined,
    );
  return {
    empty: terms.length === 0,
    lookup,
    // All in one text: "paciente ana 1" is a name, not a name and a number of an e-mail address.
    matches: ({ texts }) =>
      terms.length > 0 &&
      texts.some((text) => {
        const words = searchWordsOf(text);
        return terms.every((term) => words.some((word) => word.startsWith(term)));
      }),
  };
}
