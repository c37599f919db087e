/**
 * CSV for spreadsheets (Excel in a Spanish locale first): UTF-8 with a byte-order mark (without it
 * Excel reads UTF-8 as ANSI and mangles "Núñez"), `;` between cells (the list separator of Spanish
 * Excel; with `,` every row lands in one column), CRLF line ends (RFC 4180), and cells quoted when
 * they contain a separator, a quote or a line break.
 *
 * Formula injection (CSV injection): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@`
 * (and tab / carriage return / line feed, which some programs skip before looking) as a formula, so
 * an actor named `=HYPERLINK("http://evil","clic")` would become a live link. Such cells get a
 * leading single quote, which spreadsheets show as text and never evaluate (OWASP's advice).
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_NEWLINE = '\r\n';

const FORMULA_START = /^[=+\-@\t\r\n]/;
const NEEDS_QUOTES = /[";\r\n,]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + CSV_NEWLINE;
}
