/**
 * A minimal iCalendar (RFC 5545) writer for one appointment: CRLF line endings, text escaping and
 * line folding at 75 octets, times in UTC (no VTIMEZONE needed; calendars show them in local time).
 */
export interface CalendarEntry {
  /** Stable per appointment, so a re-sent or cancelling file updates the same calendar entry. */
  uid: string;
  start: Date;
  durationMinutes: number;
  summary: string;
  description: string;
  location: string;
  organizer: { name: string; email: string };
  /** When the change happened (stable per event, so a re-sent e-mail carries the same file). */
  stamp: Date;
  /** PUBLISH adds the entry (or moves it, with a higher sequence); CANCEL removes it. */
  method: 'PUBLISH' | 'CANCEL';
  /** Grows with every change of the entry, so calendars apply the newest file (RFC 5545 3.8.7.4). */
  sequence: number;
}

const CRLF = '\r\n';

/** `20261123T091500Z` */
export const icsUtc = (instant: Date): string =>
  instant
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** TEXT values escape backslash, semicolon, comma and newlines. */
export const escapeIcsText = (text: string): string =>
  text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Folds a content line into chunks of at most 75 octets, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const chunks: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    // Continuation lines start with a space, which counts towards their 75 octets.
    const limit = chunks.length === 0 ? 75 : 74;
    if (octets + size > limit) {
      chunks.push(current);
      current = '';
      octets = 0;
    }
    current += char;
    octets += size;
  }
  chunks.push(current);
  return chunks.join(`${CRLF} `);
}

export function buildIcs(entry: CalendarEntry): string {
  const end = new Date(entry.start.getTime() + entry.durationMinutes * 60_000);
  const cancelling = entry.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Centro de Reconocimiento Medico//Citas//ES',
    'CALSCALE:GREGORIAN',
    `METHOD:${entry.method}`,
    'BEGIN:VEVENT',
    `UID:${entry.uid}`,
    `DTSTAMP:${icsUtc(entry.stamp)}`,
    `DTSTART:${icsUtc(entry.start)}`,
    `DTEND:${icsUtc(end)}`,
    `SUMMARY:${escapeIcsText(entry.summary)}`,
    `DESCRIPTION:${escapeIcsText(entry.description)}`,
    `LOCATION:${escapeIcsText(entry.location)}`,
    `ORGANIZER;CN="${entry.organizer.name.replace(/"/g, '')}":mailto:${entry.organizer.email}`,
    `STATUS:${cancelling ? 'CANCELLED' : 'CONFIRMED'}`,
    `SEQUENCE:${entry.sequence}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join(CRLF) + CRLF;
}
