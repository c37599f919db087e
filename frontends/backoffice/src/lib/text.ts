/** Lower case without accents, for search boxes ("José" matches "jose"). */
export const fold = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** True when `query` (folded) is empty or appears in one of `fields` (folded). */
export function matchesSearch(query: string, fields: Array<string | undefined | null>): boolean {
  const needle = fold(query.trim());
  if (!needle) return true;
  return fields.some((field) => field != null && fold(field).includes(needle));
}
