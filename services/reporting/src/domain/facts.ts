import moment from 'moment-timezone';
import {
  CENTRE_TIME_ZONE,
  isOpeningWeekday,
  isRefundable,
  slotMinutesOfDay,
  type BookingChannel,
} from '@crm/contracts';

/**
 * The read model is made of facts: one document per (appointment, what happened to it) and one per
 * clinical record. A fact is a pure function of its event, carries its own figures (`counts`, so a
 * day's totals are one `$unwind` + `$group`/`$sum`, see data/facts.repository.ts) and has an id
 * derived from what it is about, never from the delivery: the same event twice stores nothing new.
 */
export const APPOINTMENT_FACTS = [
  'booked',
  'cancelled',
  'deleted',
  'checkedIn',
  'attended',
  'noShow',
] as const;
export type AppointmentFactKind = (typeof APPOINTMENT_FACTS)[number];
export type FactKind = AppointmentFactKind | 'record' | MoneyFlow;

/** Money taken (`payments.payment.succeeded.v1`) or given back (`payments.refund.issued.v1`). */
export const MONEY_FLOWS = ['taken', 'refunded'] as const;
export type MoneyFlow = (typeof MONEY_FLOWS)[number];

/** The counters every fact carries (0 or 1, or an amount): what a day sums. */
export const COUNTERS = [
  'booked',
  'walkIns',
  'chPatient',
  'chStaff',
  'chKiosk',
  'cancelled',
  'refundable',
  'deleted',
  'checkedIn',
  'attended',
  'noShow',
  'gridBooked',
  'gridReleased',
  'revenue',
  'records',
] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counters = Record<Counter, number>;

export const zeroCounters = (): Counters => Object.fromEntries(COUNTERS.map((name) => [name, 0])) as Counters;

/**
 * One figure of a fact, keyed `<day>|<counter>` (or `<day>|cert|<currency>|<certificate type>` for a
 * record's GROSS): FerretDB 1.24 computes only the first `$sum` of a `$group` and drops fields of a
 * compound group key, so the day totals group on this one string key with one `$sum`.
 */
export interface FactCount {
  k: string;
  v: number;
}

export interface Fact {
  /** `<appointment id>:<kind>`, `record:<record id>` or `payment:<payment id>:<flow>`. */
  _id: string;
  kind: FactKind;
  /** The appointment's day at the centre, YYYY-MM-DD. */
  day: string;
  /** The appointment (for a record: its appointment, = the record id). */
  appointmentId: string;
  /** The appointment's instant (a payment's or refund's facts: when the money moved). */
  at: Date;
  /** Records: the certificate type ("Sin tipo" when none), the currency, the revision (newest wins). */
  certificateType?: string;
  currency?: string;
  revision?: number;
  /** The event's own instant (orders two versions of a record without a revision). */
  occurredAt: Date;
  /** Booked facts: the check-up price when the booking was heard of (what is owed for it), in cents. */
  priceCents?: number;
  /**
   * Money facts: the appointment's day (its pending figure changes too); `UNKNOWN_DAY` while its
   * booking has not been heard of (given its day by the recomputation of that day, once it is).
   */
  appointmentDay?: string;
  /** Money facts: the cents taken or given back (also in `counts`, keyed by the day the money moved). */
  cents?: number;
  /** The non-zero figures of this fact. */
  counts: FactCount[];
}

/** A money fact's `appointmentDay` while its appointment's booking is unknown. */
export const UNKNOWN_DAY = '?';

export const CERTIFICATE_KEY = 'cert';
/** `<day>|money|<currency>|<flow>|<method>`: the cents of a payment or a refund. */
export const MONEY_KEY = 'money';

/** The `counts` of a fact of that day: its non-zero counters (and a record's GROSS by certificate). */
export function countsOf(
  day: string,
  counters: Partial<Counters>,
  certificate?: { type: string; currency: string },
) {
  const counts: FactCount[] = Object.entries(counters)
    .filter(([, value]) => typeof value === 'number' && value !== 0)
    .map(([name, value]) => ({ k: `${day}|${name}`, v: value as number }));
  if (certificate && counters.revenue)
    counts.push({
      k: `${day}|${CERTIFICATE_KEY}|${certificate.currency}|${certificate.type}`,
      v: counters.revenue,
    });
  return counts;
}

export const NO_CERTIFICATE = 'Sin tipo';
const GRID = new Set(slotMinutesOfDay());

/** "2026-05-31" for an instant, at the centre. */
export const centreDay = (instant: Date | string): string =>
  moment.tz(instant, CENTRE_TIME_ZONE).format('YYYY-MM-DD');

/** Is the instant the start of one of the grid slots of an opening day (a walk-in's minute is not)? */
export function isGridSlot(instant: Date): boolean {
  const local = moment.tz(instant, CENTRE_TIME_ZONE);
  if (!isOpeningWeekday(local.isoWeekday())) return false;
  if (local.seconds() !== 0 || local.milliseconds() !== 0) return false;
  return GRID.has(local.hours() * 60 + local.minutes());
}

/** The grid slots of a day at the centre: every slot of an opening weekday, none on a closed day. */
export function slotsOfDay(day: string): number {
  const weekday = moment.tz(day, 'YYYY-MM-DD', CENTRE_TIME_ZONE).isoWeekday();
  return isOpeningWeekday(weekday) ? GRID.size : 0;
}

export interface AppointmentEventData {
  id: string;
  date: string;
  channel: BookingChannel;
  /** A cancellation that only made room for a reschedule: the slot is freed, nothing was cancelled. */
  rescheduledTo?: string;
  /** Likewise a later appointment the patient gave up at the kiosk to be seen now (a walk-in). */
  replacedBy?: string;
  /** The cancellation's refund as the appointments service decided it (older events: computed here). */
  refundable?: boolean;
}

/**
 * The fact of an appointment event. A cancellation is refundable when it was made more than
 * `refundWindowHours` before the start (`occurredAt` = when it was cancelled), unless the event
 * says. A reschedule counts as the new appointment's booking and the old slot's release.
 */
export function appointmentFact(
  kind: AppointmentFactKind,
  data: AppointmentEventData,
  occurredAt: string,
  refundWindowHours: number,
  /** Booked facts: the centre's check-up price at that moment, in cents. */
  priceCents?: number,
): Fact {
  const at = new Date(data.date);
  const happened = new Date(occurredAt);
  const counters = zeroCounters();
  const grid = isGridSlot(at) ? 1 : 0;
  switch (kind) {
    case 'booked':
      counters.booked = 1;
      counters.walkIns = data.channel === 'kiosk' ? 1 : 0;
      counters.chPatient = data.channel === 'patient' ? 1 : 0;
      counters.chStaff = data.channel === 'staff' ? 1 : 0;
      counters.chKiosk = data.channel === 'kiosk' ? 1 : 0;
      counters.gridBooked = grid;
      break;
    case 'cancelled':
      counters.gridReleased = grid;
      if (data.rescheduledTo || data.replacedBy) break;
      counters.cancelled = 1;
      counters.refundable = (data.refundable ?? isRefundable(at, happened, refundWindowHours)) ? 1 : 0;
      break;
    case 'deleted':
      counters.deleted = 1;
      counters.gridReleased = grid;
      break;
    default:
      counters[kind] = 1;
  }
  const day = centreDay(at);
  return {
    _id: `${data.id}:${kind}`,
    kind,
    day,
    appointmentId: data.id,
    at,
    occurredAt: happened,
    ...(kind === 'booked' && priceCents !== undefined ? { priceCents } : {}),
    counts: countsOf(day, counters),
  };
}

export interface RecordEventData {
  id: string;
  dateId: string;
  billing?: {
    gross: number;
    currency: string;
    certificateType?: string;
    revision?: number;
    appointmentDate?: string;
  };
}

/**
 * The fact of a record event with billing (undefined without): its GROSS on the appointment's day.
 * `appointmentAt` is the appointment's instant when the event does not carry it (from the booked
 * fact), else the event's own instant is used.
 */
export function recordFact(
  data: RecordEventData,
  occurredAt: string,
  appointmentAt?: Date,
): Fact | undefined {
  const billing = data.billing;
  if (!billing) return undefined;
  const at = billing.appointmentDate
    ? new Date(billing.appointmentDate)
    : (appointmentAt ?? new Date(occurredAt));
  const day = centreDay(at);
  const certificateType = billing.certificateType?.trim() || NO_CERTIFICATE;
  return {
    _id: `record:${data.id}`,
    kind: 'record',
    day,
    appointmentId: data.dateId,
    at,
    occurredAt: new Date(occurredAt),
    certificateType,
    currency: billing.currency,
    ...(billing.revision !== undefined ? { revision: billing.revision } : {}),
    counts: countsOf(
      day,
      { revenue: billing.gross, records: 1 },
      { type: certificateType, currency: billing.currency },
    ),
  };
}

/** Does `next` describe a later version of the record than `stored` (revision, then event time)? */
export function isNewerRecord(
  next: Pick<Fact, 'revision' | 'occurredAt'>,
  stored: Pick<Fact, 'revision' | 'occurredAt'>,
): boolean {
  const nextRevision = next.revision ?? 0;
  const storedRevision = stored.revision ?? 0;
  if (nextRevision !== storedRevision) return nextRevision > storedRevision;
  return new Date(next.occurredAt).getTime() > new Date(stored.occurredAt).getTime();
}

export interface MoneyEventData {
  paymentId: string;
  appointmentId: string;
  method: string;
  currency: string;
  amountCents: number;
  /** Refunds: the cents given back (a payment is refunded at most once, in full today). */
  refundCents?: number;
}

/**
 * The fact of a payment taken or refunded, on the centre's day the money moved (`movedAt`). A
 * payment has one succeeded event and at most one refund (the payments service refuses a second),
 * so `payment:<id>:<flow>` names it: a redelivered event is a duplicate key, stored once.
 */
export function moneyFact(
  flow: MoneyFlow,
  data: MoneyEventData,
  movedAt: string,
  occurredAt: string,
  /** The appointment's day at the centre, when its booking is known. */
  appointmentDay?: string,
): Fact {
  const at = new Date(movedAt);
  const day = centreDay(at);
  const cents = flow === 'refunded' ? (data.refundCents ?? data.amountCents) : data.amountCents;
  return {
    _id: `payment:${data.paymentId}:${flow}`,
    kind: flow,
    day,
    appointmentId: data.appointmentId,
    at,
    occurredAt: new Date(occurredAt),
    currency: data.currency,
    cents,
    appointmentDay: appointmentDay ?? UNKNOWN_DAY,
    counts: cents > 0 ? [{ k: `${day}|${MONEY_KEY}|${data.currency}|${flow}|${data.method}`, v: cents }] : [],
  };
}

/** What the pending figure of a day needs of one of its facts. */
export type PendingInput = Pick<Fact, 'kind' | 'appointmentId' | 'priceCents' | 'cents'>;

/** Facts that end an appointment without anything owed: cancelled, deleted, or the patient never came. */
const NOT_OWED: ReadonlySet<FactKind> = new Set<FactKind>(['cancelled', 'deleted', 'noShow']);

/**
 * What is still to be paid for a day's appointments, in cents: for every appointment of the day that
 * was booked and not cancelled, deleted or a no-show (one that took place or is still to come), its
 * check-up price (the booked fact's, else `fallbackPriceCents`) minus the money kept for it (taken −
 * refunded, whatever day that money moved), never below 0 (an appointment paid more, for the record's
 * extra items, owes nothing but makes up for no other). `dayFacts` are the day's appointment facts,
 * `money` the money facts of those appointments.
 */
export function pendingCentsOf(
  dayFacts: readonly PendingInput[],
  money: readonly PendingInput[],
  fallbackPriceCents: number,
): number {
  const owed = new Map<string, number>();
  const ended = new Set<string>();
  for (const fact of dayFacts) {
    if (fact.kind === 'booked') owed.set(fact.appointmentId, fact.priceCents ?? fallbackPriceCents);
    else if (NOT_OWED.has(fact.kind)) ended.add(fact.appointmentId);
  }
  const kept = new Map<string, number>();
  for (const fact of money) {
    const cents = fact.cents ?? 0;
    const sign = fact.kind === 'taken' ? 1 : fact.kind === 'refunded' ? -1 : 0;
    kept.set(fact.appointmentId, (kept.get(fact.appointmentId) ?? 0) + sign * cents);
  }
  let pending = 0;
  for (const [appointmentId, price] of owed) {
    if (ended.has(appointmentId)) continue;
    pending += Math.max(0, price - (kept.get(appointmentId) ?? 0));
  }
  return pending;
}
