import moment from 'moment-timezone';
import {
  ACTIVE_APPOINTMENT_STATUSES,
  CENTRE_TIME_ZONE,
  centreDayOf,
  CHECK_IN_WINDOW,
  NO_SHOW_AFTER_END_MINUTES,
  type AppointmentStatus,
} from '@crm/contracts';
import type { Appointment, EndStatus } from './appointment';
import { SLOT_MS, startOfLocalDay } from './slot-rules';

/**
 * The lifecycle of an appointment (README, "Statuses"), as pure functions of the appointment and
 * "now". Which transition is allowed is decided here; that only one of several concurrent ones
 * happens is the repository's unique keys' job.
 */

const MINUTE = 60_000;

/** Who asks for a transition: the rules differ (a patient may not cancel once checked in, …). */
export type Initiator = 'patient' | 'staff' | 'kiosk' | 'record' | 'system';

export type Target = 'checkedIn' | EndStatus;

/** Why a transition is refused; each has its answer (booking.messages.ts). */
export type Refusal =
  /** It has ended already (or never was active). */
  | 'ended'
  | 'alreadyCheckedIn'
  /** Check-in outside [start − 2 h, start + 30 min]. */
  | 'outsideCheckInWindow'
  /** A checked-in patient came: not a no-show; a patient cannot cancel it themself either. */
  | 'checkedIn'
  /** No-show before the start; attended (by staff or a record) before the check-in window opens. */
  | 'tooEarly'
  /** A patient cancelling once the appointment has started (the kiosk: once it can be checked in). */
  | 'started';

const isActive = (status: AppointmentStatus) =>
  (ACTIVE_APPOINTMENT_STATUSES as readonly AppointmentStatus[]).includes(status);

export const checkInOpensAt = (a: Pick<Appointment, 'date'>) =>
  a.date.getTime() - CHECK_IN_WINDOW.opensMinutesBefore * MINUTE;
export const checkInClosesAt = (a: Pick<Appointment, 'date'>) =>
  a.date.getTime() + CHECK_IN_WINDOW.closesMinutesAfter * MINUTE;

/** The check-in window is open now (whatever the status). */
export const checkInOpen = (a: Pick<Appointment, 'date'>, now: Date): boolean =>
  now.getTime() >= checkInOpensAt(a) && now.getTime() <= checkInClosesAt(a);

/**
 * Still the patient's appointment: checked in (until it ends), or booked and its check-in window not
 * closed yet. A booked appointment past its window no longer blocks a new booking (which ends it as
 * noShow) and is no longer shown as the patient's current one.
 */
export const isCurrent = (a: Pick<Appointment, 'date' | 'status'>, now: Date): boolean =>
  a.status === 'checkedIn' || (a.status === 'booked' && now.getTime() <= checkInClosesAt(a));

/** Why `initiator` may not move `a` to `to` at `now`, or undefined when it may. */
export function transitionRefusal(
  a: Pick<Appointment, 'date' | 'status'>,
  to: Target,
  initiator: Initiator,
  now: Date,
): Refusal | undefined {
  if (!isActive(a.status)) return 'ended';
  const t = now.getTime();
  const checkedIn = a.status === 'checkedIn';
  switch (to) {
    case 'checkedIn':
      if (checkedIn) return 'alreadyCheckedIn';
      return checkInOpen(a, now) ? undefined : 'outsideCheckInWindow';
    case 'attended':
      // Staff and a saved record mark it from the check-in window on: a record may be prepared
      // days ahead, and that must not end (and free) an appointment the patient still has to come to.
      if (!checkedIn && (initiator === 'staff' || initiator === 'record') && t < checkInOpensAt(a))
        return 'tooEarly';
      return undefined;
    case 'noShow':
      if (checkedIn) return 'checkedIn';
      if (initiator === 'staff' && t < a.date.getTime()) return 'tooEarly';
      return undefined;
    case 'cancelled':
      if (initiator === 'patient') {
        if (checkedIn) return 'checkedIn';
        if (t >= a.date.getTime()) return 'started';
      }
      // The service releases only booked appointments (an unconfirmed account's hold).
      if (initiator === 'system' && checkedIn) return 'checkedIn';
      // The kiosk cancels only to replace a later appointment by a walk-in ("be seen now").
      if (initiator === 'kiosk') {
        if (checkedIn) return 'checkedIn';
        if (t >= checkInOpensAt(a)) return 'started';
      }
      return undefined;
    case 'deleted':
      return undefined;
  }
}

/**
 * What the sweep does with an active appointment: a booked one 30 minutes after its end becomes
 * noShow; a checked-in one is left for staff or a record to mark until its day (Atlantic/Canary) is
 * over, then it is closed as attended (the patient came; nobody said otherwise).
 */
export function sweepOutcome(
  a: Pick<Appointment, 'date' | 'status'>,
  now: Date,
): 'noShow' | 'attended' | undefined {
  if (a.status === 'booked' && now.getTime() >= noShowAt(a)) return 'noShow';
  if (a.status === 'checkedIn' && a.date.getTime() < startOfLocalDay(now).getTime()) return 'attended';
  return undefined;
}

/** When a booked appointment becomes a no-show by itself. */
export const noShowAt = (a: Pick<Appointment, 'date'>) =>
  a.date.getTime() + SLOT_MS + NO_SHOW_AFTER_END_MINUTES * MINUTE;

/** The earliest start the sweep has to look at: nothing started after it can be due. */
export const sweepCutoff = (now: Date): Date =>
  new Date(now.getTime() - SLOT_MS - NO_SHOW_AFTER_END_MINUTES * MINUTE);

/** [midnight, next midnight) of a local day `YYYY-MM-DD` (23 or 25 hours long on DST days). */
export function centreDayRange(day: string): { from: Date; to: Date } {
  const midnight = moment.tz(day, 'YYYY-MM-DD', true, CENTRE_TIME_ZONE);
  return { from: midnight.toDate(), to: midnight.clone().add(1, 'day').toDate() };
}

/** The appointment starts today (the centre's day). */
export const isToday = (a: Pick<Appointment, 'date'>, now: Date): boolean =>
  centreDayOf(a.date) === centreDayOf(now);
