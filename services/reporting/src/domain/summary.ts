import moment from 'moment-timezone';
import type { ReportDay, ReportFigures, ReportSummary } from '@crm/contracts';
import { slotsOfDay, zeroCounters, type Counters } from './facts';

/** A day's totals as stored (data: `days`), recomputed from the day's facts. */
export interface DayTotals extends Counters {
  day: string;
  revenueByCertificate: Record<string, number>;
  currency?: string;
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const ratio = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : 0);

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  const end = moment.utc(to, 'YYYY-MM-DD');
  for (const day = moment.utc(from, 'YYYY-MM-DD'); !day.isAfter(end); day.add(1, 'day'))
    days.push(day.format('YYYY-MM-DD'));
  return days;
}

function figures(counters: Counters, slots: number, byCertificate: Record<string, number>): ReportFigures {
  const bookedSlots = Math.max(0, Math.min(slots, counters.gridBooked - counters.gridReleased));
  return {
    booked: counters.booked,
    walkIns: counters.walkIns,
    byChannel: { patient: counters.chPatient, staff: counters.chStaff, kiosk: counters.chKiosk },
    cancelled: counters.cancelled,
    refundableCancellations: counters.refundable,
    nonRefundableCancellations: counters.cancelled - counters.refundable,
    deleted: counters.deleted,
    checkedIn: counters.checkedIn,
    attended: counters.attended,
    noShow: counters.noShow,
    noShowRate: ratio(counters.noShow, counters.attended + counters.noShow),
    bookedSlots,
    slots,
    occupancy: ratio(bookedSlots, slots),
    revenue: round2(counters.revenue),
    records: counters.records,
    revenueByCertificate: Object.fromEntries(
      Object.entries(byCertificate)
        .sort(([, a], [, b]) => b - a)
        .map(([type, amount]) => [type, round2(amount)]),
    ),
  };
}

/** The answer of `GET /reports/summary`: every day of the range (zeros where nothing happened) and totals. */
export function summarize(
  from: string,
  to: string,
  stored: readonly DayTotals[],
  refundWindowHours: number,
): ReportSummary {
  const byDay = new Map(stored.map((day) => [day.day, day]));
  const total = zeroCounters();
  const totalByCertificate: Record<string, number> = {};
  let totalSlots = 0;
  let totalBookedSlots = 0;
  let currency: string | undefined;
  const days: ReportDay[] = daysBetween(from, to).map((date) => {
    const day = byDay.get(date);
    const slots = slotsOfDay(date);
    const counters = day ?? zeroCounters();
    const result = { date, ...figures(counters, slots, day?.revenueByCertificate ?? {}) };
    for (const key of Object.keys(total) as Array<keyof Counters>) total[key] += counters[key];
    for (const [type, amount] of Object.entries(day?.revenueByCertificate ?? {}))
      totalByCertificate[type] = (totalByCertificate[type] ?? 0) + amount;
    totalSlots += slots;
    totalBookedSlots += result.bookedSlots;
    currency ??= day?.currency;
    return result;
  });
  const totals = figures(total, totalSlots, totalByCertificate);
  totals.bookedSlots = totalBookedSlots;
  totals.occupancy = ratio(totalBookedSlots, totalSlots);
  return { from, to, currency: currency ?? 'EUR', refundWindowHours, days, totals };
}
