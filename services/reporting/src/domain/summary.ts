import moment from 'moment-timezone';
import type {
  PaymentMethod,
  ReportDay,
  ReportFigures,
  ReportMoney,
  ReportMoneyFigures,
  ReportSummary,
} from '@crm/contracts';
import { slotsOfDay, zeroCounters, type Counters } from './facts';

/** A day's totals as stored (data: `days`), recomputed from the day's facts. */
export interface DayTotals extends Counters {
  day: string;
  revenueByCertificate: Record<string, number>;
  currency?: string;
  /** Absent from days computed before payments were counted. */
  money?: MoneyMoved[];
  /** What the day's appointments still owe (absent: computed before it was counted). */
  pendingCents?: number;
}

/** Cents of one currency, flow and method moved on a day. */
export interface MoneyMoved {
  currency: string;
  flow: 'taken' | 'refunded';
  method: string;
  cents: number;
}

const zeroMoney = (): ReportMoneyFigures => ({ takenCents: 0, refundedCents: 0, netCents: 0 });

/**
 * The money of a day or of the range. The centre takes one currency: amounts of every currency are
 * added, and the first one seen is the one stated (EUR when nothing moved).
 */
function moneyOf(moved: readonly MoneyMoved[], pendingCents: number): ReportMoney {
  const total = zeroMoney();
  const byMethod: Partial<Record<PaymentMethod, ReportMoneyFigures>> = {};
  for (const { flow, method, cents } of moved) {
    const ofMethod = (byMethod[method as PaymentMethod] ??= zeroMoney());
    for (const figures of [total, ofMethod]) {
      if (flow === 'taken') figures.takenCents += cents;
      else figures.refundedCents += cents;
      figures.netCents = figures.takenCents - figures.refundedCents;
    }
  }
  const sorted = Object.fromEntries(Object.entries(byMethod).sort(([a], [b]) => a.localeCompare(b)));
  return { currency: moved[0]?.currency ?? 'EUR', ...total, pendingCents, byMethod: sorted };
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

function figures(
  counters: Counters,
  slots: number,
  byCertificate: Record<string, number>,
  moved: readonly MoneyMoved[],
  pendingCents: number,
): ReportFigures {
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
    money: moneyOf(moved, pendingCents),
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
  const totalMoney: MoneyMoved[] = [];
  let totalPending = 0;
  let currency: string | undefined;
  const days: ReportDay[] = daysBetween(from, to).map((date) => {
    const day = byDay.get(date);
    const slots = slotsOfDay(date);
    const counters = day ?? zeroCounters();
    const pendingCents = day?.pendingCents ?? 0;
    const result = {
      date,
      ...figures(counters, slots, day?.revenueByCertificate ?? {}, day?.money ?? [], pendingCents),
    };
    totalMoney.push(...(day?.money ?? []));
    totalPending += pendingCents;
    for (const key of Object.keys(total) as Array<keyof Counters>) total[key] += counters[key];
    for (const [type, amount] of Object.entries(day?.revenueByCertificate ?? {}))
      totalByCertificate[type] = (totalByCertificate[type] ?? 0) + amount;
    totalSlots += slots;
    totalBookedSlots += result.bookedSlots;
    currency ??= day?.currency;
    return result;
  });
  const totals = figures(total, totalSlots, totalByCertificate, totalMoney, totalPending);
  totals.bookedSlots = totalBookedSlots;
  totals.occupancy = ratio(totalBookedSlots, totalSlots);
  return { from, to, currency: currency ?? 'EUR', refundWindowHours, days, totals };
}
