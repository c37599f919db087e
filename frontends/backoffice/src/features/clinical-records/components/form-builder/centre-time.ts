/**
 * The centre's clock (docs/product/centre-profile.md#centre-clock): Atlantic/Canary, 24-hour, es-ES
 * day/month/year order.
 */
export const CENTRE_TIME_ZONE = 'Atlantic/Canary';

const formatter = new Intl.DateTimeFormat('en-GB', {
  timeZone: CENTRE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** `{date: "dd/MM/yyyy", time: "HH:mm"}` of an instant at the centre; undefined for a bad date. */
export function centreDateTime(value: string | Date): { date: string; time: string } | undefined {
  const instant = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(instant.getTime())) return undefined;
  const part = Object.fromEntries(formatter.formatToParts(instant).map((p) => [p.type, p.value]));
  return { date: `${part.day}/${part.month}/${part.year}`, time: `${part.hour}:${part.minute}` };
}

/** "dd/MM/yyyy HH:mm" at the centre, or "" for a missing or bad date. */
export function formatCentreDateTime(value: string | Date | undefined | null): string {
  const parts = value ? centreDateTime(value) : undefined;
  return parts ? `${parts.date} ${parts.time}` : '';
}

/** "dd/MM/yyyy" at the centre, or "". */
export function formatCentreDate(value: string | Date | undefined | null): string {
  return (value ? centreDateTime(value)?.date : undefined) ?? '';
}
