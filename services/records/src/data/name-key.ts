/** "Álvaro Núñez" → "alvaro nunez": names are searched accent- and case-insensitively by this key. */
export const nameKey = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .trim();

/** A user's search text as a literal inside a regular expression (no operators, no ReDoS). */
export const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
