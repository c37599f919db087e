/**
 * CSV for spreadsheets (Excel in a Spanish locale first): UTF-8 with a byte-order mark (without it
 * Excel reads UTF-8 as ANSI and mangles "Núñez"), `;` between cells (the list separator of Spanish
 * Excel; with `,` every row lands in one column), CRLF line ends (RFC 4180), and cells quoted when
 * they contain a separator, a quote or a line break.
 *
 * Formula injection (CSV injection): a spreadsheet runs a cell that starts with `=`, `+`, `-` or `@`
 * (and tab / carriage return / line feed, which some programs skip before looking) as a formula, so
 * an actor named `=HYPERLINK("http://evil","clic")` would become a live link. Such cells get a
 * leading single quote, which spreadsheets show as text and never evaluate (OWASP's advice). A plain
 * number ("-19,00", "-3.5") is left as it is: it cannot be a formula, and quoted it would be text
 * that no column sum adds (a rectifying invoice's negative total).
 */
export const CSV_BOM = '\uFEFF';
export const CSV_SEPARATOR = ';';
export const CSV_NEWLINE = '\r\n';

const FORMULA_START = /^[=+\-@\t\r\n]/;
const PLAIN_NUMBER = /^-?\d+([.,]\d+)?$/;
const NEEDS_QUOTES = /[";\r\n,]/;

export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  // Unquoted too: with `;` between cells a decimal comma needs no quotes, and a bare number is what
  // a spreadsheet reads as a number whatever it guesses the separator to be.
  if (PLAIN_NUMBER.test(text)) return text;
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(cells: ReadonlyArray<string | number | null | undefined>): string {
  return cells.map(csvCell).join(CSV_SEPARATOR) + CSV_NEWLINE;
}
