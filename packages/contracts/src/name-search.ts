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
