import { formatDate, formatTime } from '@crm/web-kit/time';

/** Whether the instant falls on today's date at the centre (Atlantic/Canary). */
export const isTodayAtCentre = (instant: string, now: number = Date.now()): boolean =>
  formatDate(instant) === formatDate(now);

/**
 * When an appointment is, as the kiosk says it (centre's time, 24-hour clock): "hoy a las 10:00"
 * today ("hoy, 12/12/2026, a las 10:00" with `withDate`), "el 12/12/2026 a las 10:00" another day.
 */
export function appointmentWhen(instant: string, { withDate = false, now = Date.now() } = {}): string {
  const time = `a las ${formatTime(instant)}`;
  if (!isTodayAtCentre(instant, now)) return `el ${formatDate(instant)} ${time}`;
  return withDate ? `hoy, ${formatDate(instant)}, ${time}` : `hoy ${time}`;
}
