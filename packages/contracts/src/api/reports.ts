import { z } from 'zod';
import { BOOKING_CHANNELS, type BookingChannel } from './appointments';
import type { PaymentMethod } from './payments';

/** The longest range `GET /reports/summary` answers, in days (a leap year). */
export const REPORT_MAX_DAYS = 366;

const DAY_INVALID = 'La fecha debe tener el formato AAAA-MM-DD';

const day = (label: string) =>
  z
    .string({ error: `${label} es obligatoria` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_INVALID)
    .refine((value) => {
      const parsed = new Date(`${value}T00:00:00Z`);
      return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
    }, DAY_INVALID);

const dayNumber = (value: string) => Date.parse(`${value}T00:00:00Z`) / 86_400_000;

/** `GET /reports/summary?from=YYYY-MM-DD&to=YYYY-MM-DD`: both days included, at most 366 days. */
export const reportSummaryQuery = z
  .strictObject(
    { from: day('La fecha inicial'), to: day('La fecha final') },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? 'Parámetro de consulta no permitido' : undefined,
    },
  )
  .superRefine(({ from, to }, ctx) => {
    if (from > to) {
      ctx.addIssue({
        code: 'custom',
        path: ['from'],
        message: 'La fecha inicial debe ser anterior o igual a la final',
      });
    } else if (dayNumber(to) - dayNumber(from) + 1 > REPORT_MAX_DAYS) {
      ctx.addIssue({
        code: 'custom',
        path: ['to'],
        message: `El periodo no puede superar los ${REPORT_MAX_DAYS} días`,
      });
    }
  });
export type ReportSummaryQuery = z.infer<typeof reportSummaryQuery>;

export const REPORT_CHANNELS = BOOKING_CHANNELS;

/** The figures of one day (or of the whole range, `totals`). Day = the appointment's day at the centre. */
export interface ReportFigures {
  /** Appointments booked for this day, through every channel (walk-ins included). */
  booked: number;
  /** Booked by the kiosk (walk-ins). */
  walkIns: number;
  /** Booked, by channel: patient (web), staff, kiosk. */
  byChannel: Record<BookingChannel, number>;
  cancelled: number;
  /** Cancellations made more than the centre's refund window before the start. */
  refundableCancellations: number;
  /** Cancellations inside the refund window (no refund). */
  nonRefundableCancellations: number;
  deleted: number;
  checkedIn: number;
  attended: number;
  noShow: number;
  /** noShow / (attended + noShow), 0 when neither. */
  noShowRate: number;
  /** Grid slots held by an appointment (booked, not cancelled or deleted). */
  bookedSlots: number;
  /** The grid slots of the day (0 on a closed day). */
  slots: number;
  /** bookedSlots / slots, 0 when the centre is closed. */
  occupancy: number;
  /** The latest GROSS of the day's clinical records. */
  revenue: number;
  /** Clinical records (with a GROSS) of the day. */
  records: number;
  /** GROSS by certificate type ("Sin tipo" when the record has none). */
  revenueByCertificate: Record<string, number>;
  /** Money that moved this day (the payments service's events), unlike `revenue` (what records bill). */
  money: ReportMoney;
}

/** Money taken and given back, in integer cents; net = taken − refunded. */
export interface ReportMoneyFigures {
  takenCents: number;
  refundedCents: number;
  netCents: number;
}

/**
 * Money on the day it moved at the centre: a payment on the day it was paid, a refund on the day the
 * gateway (or the desk) confirmed it — not the appointment's day, unlike every other figure.
 */
export interface ReportMoney extends ReportMoneyFigures {
  /** Currency of the amounts (the payments' own; EUR when none). */
  currency: string;
  /**
   * Still to be paid for the appointments OF THIS DAY (unlike the other money figures, counted on
   * the appointment's day): each booked appointment not cancelled, deleted or a no-show owes the
   * check-up price when it was booked, minus the money kept for it (taken − refunded, on whatever
   * day), never below 0 per appointment. In the totals, the sum of the days.
   */
  pendingCents: number;
  /** Only the methods that moved money, e.g. `{card: {...}, cash: {...}}`. */
  byMethod: Partial<Record<PaymentMethod, ReportMoneyFigures>>;
}

export interface ReportDay extends ReportFigures {
  /** YYYY-MM-DD at the centre (Atlantic/Canary). */
  date: string;
}

export interface ReportSummary {
  from: string;
  to: string;
  /** Currency of the revenue figures (the records' own; EUR when none). */
  currency: string;
  /** Hours before the start beyond which a cancellation is refunded (centre profile). */
  refundWindowHours: number;
  /** Every day of the range, in order, with zeros for days without activity. */
  days: ReportDay[];
  totals: ReportFigures;
}
