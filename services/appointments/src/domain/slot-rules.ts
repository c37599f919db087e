import moment from 'moment-timezone';
import {
  CENTRE_TIME_ZONE,
  dayStatus,
  NO_CLOSURES,
  slotOpenOnDay,
  type CentreClosures,
  isOpeningWeekday,
  isWithinOpeningHours,
  SLOT_MINUTES,
  slotMinutesOfDay,
} from '@crm/contracts';

/**
 * The bookable instants (docs/product/booking.md#slots), as pure functions of an instant and "now".
 * Opening hours are wall-clock times in Atlantic/Canary, so every check converts the instant to
 * that zone first: 09:00 there is 09:00Z in winter and 08:00Z in summer.
 */

/** The kiosk's immediate booking (now + 60 s) must fall within this window around now. */
export const WALK_IN_WINDOW = {
  /** Tolerates a kiosk clock slightly behind the server's. */
  earliestMs: -2 * 60_000,
  latestMs: 60 * 60_000,
};

export const SLOT_MS = SLOT_MINUTES * 60_000;

export const SLOT_MESSAGES = {
  past: 'La fecha ya ha pasado',
  weekend: 'Solo se pueden reservar citas de lunes a viernes',
  closed: 'El horario de citas es de 9:00 a 13:00 y de 17:00 a 20:00',
  offGrid: 'Las citas empiezan cada 15 minutos (en punto, y cuarto, y media o menos cuarto)',
  walkInWindow: 'La cita inmediata debe ser dentro de la próxima hora',
} as const;

export type SlotProblem = keyof typeof SLOT_MESSAGES;

const local = (instant: Date) => moment.tz(instant.getTime(), CENTRE_TIME_ZONE);

/** Why `instant` is not a bookable slot at `now`, or undefined when it is one. */
export function slotProblem(instant: Date, now: Date): SlotProblem | undefined {
  if (instant.getTime() <= now.getTime()) return 'past';
  const wall = local(instant);
  if (!isOpeningWeekday(wall.isoWeekday())) return 'weekend';
  if (!isWithinOpeningHours(wall.hours() * 60 + wall.minutes())) return 'closed';
  if (wall.minutes() % SLOT_MINUTES !== 0 || wall.seconds() !== 0 || wall.milliseconds() !== 0)
    return 'offGrid';
  return undefined;
}

export const isBookableSlot = (instant: Date, now: Date): boolean => slotProblem(instant, now) === undefined;

/** Why a kiosk walk-in at `instant` is refused, or undefined; it needs no grid slot. */
export function walkInProblem(instant: Date, now: Date): SlotProblem | undefined {
  const offset = instant.getTime() - now.getTime();
  if (offset < WALK_IN_WINDOW.earliestMs || offset > WALK_IN_WINDOW.latestMs) return 'walkInWindow';
  return undefined;
}

/**
 * The slots of one local calendar day (`YYYY-MM-DD` in Atlantic/Canary): none on weekends, public
 * holidays and the profile's closed days; a shortened day's only up to its closing time.
 */
export function slotsOfDay(day: string, closures: CentreClosures = NO_CLOSURES): Date[] {
  const midnight = moment.tz(day, 'YYYY-MM-DD', true, CENTRE_TIME_ZONE);
  if (!midnight.isValid() || !isOpeningWeekday(midnight.isoWeekday())) return [];
  const status = dayStatus(day, closures);
  // Built from wall-clock fields, not by adding milliseconds to midnight, so DST days come out right.
  return slotMinutesOfDay()
    .filter((minute) => slotOpenOnDay(status, minute, SLOT_MINUTES))
    .map((minute) =>
      midnight
        .clone()
        .hours(Math.floor(minute / 60))
        .minutes(minute % 60)
        .toDate(),
    );
}

/** "25/12/2026" */
const shortDay = (instant: Date) => local(instant).format('DD/MM/YYYY');

/** The refusal of a closed or shortened day, or undefined when the closures leave the instant open. */
function closureRefusal(instant: Date, closures: CentreClosures, walkIn: boolean): string | undefined {
  const wall = local(instant);
  const status = dayStatus(wall.format('YYYY-MM-DD'), closures);
  if (!status.open)
    return walkIn
      ? `El centro está cerrado hoy (${status.reason}): no se pueden registrar citas`
      : `El centro está cerrado el ${shortDay(instant)} (${status.reason}). Elija otro día`;
  if (!slotOpenOnDay(status, wall.hours() * 60 + wall.minutes(), walkIn ? 1 : SLOT_MINUTES))
    return walkIn
      ? `Hoy el centro cierra a las ${status.closesAt}: ya no se pueden registrar citas`
      : `El ${shortDay(instant)} el centro cierra a las ${status.closesAt}. Elija una hora anterior`;
  return undefined;
}

function closedByAdmin(instant: Date, closures: CentreClosures): string | undefined {
  const day = local(instant).format('YYYY-MM-DD');
  const closed =
    closures.localHolidays.some((holiday) => holiday.date === day) ||
    closures.closures.some((closure) => closure.from <= day && day <= closure.to);
  return closed ? closureRefusal(instant, closures, true) : undefined;
}

/** Why a grid slot cannot be booked at `now` (Spanish message for the 400), or undefined. */
export function slotRefusal(instant: Date, now: Date, closures: CentreClosures): string | undefined {
  const problem = slotProblem(instant, now);
  if (problem) return SLOT_MESSAGES[problem];
  return closureRefusal(instant, closures, false);
}

/**
 * When the kiosk books walk-ins: `opening`, within the day's opening hours on a day the centre is
 * open (the product); `any`, whenever the admin has not closed the day (a local holiday or a closed
 * period) — for test environments whose clock is not a working day's (CI at night, at weekends).
 */
export type WalkInHours = 'opening' | 'any';

/**
 * Why the kiosk cannot book a walk-in at `instant` (now + 60 s), or undefined: only within the day's
 * opening hours, on a day the centre is open.
 */
export function walkInRefusal(
  instant: Date,
  now: Date,
  closures: CentreClosures,
  hours: WalkInHours = 'opening',
): string | undefined {
  const problem = walkInProblem(instant, now);
  if (problem) return SLOT_MESSAGES[problem];
  if (hours === 'any') return closedByAdmin(instant, closures);
  const wall = local(instant);
  if (!isOpeningWeekday(wall.isoWeekday()) || !isWithinOpeningHours(wall.hours() * 60 + wall.minutes()))
    return `El centro está cerrado ahora: no se pueden registrar citas. ${SLOT_MESSAGES.closed}`;
  return closureRefusal(instant, closures, true);
}

/** Bookable slots after `now`, in order, day by day (for tests, benchmarks and the front end's calendar). */
export function* upcomingSlots(now: Date, closures: CentreClosures = NO_CLOSURES): Generator<Date> {
  const day = local(now).startOf('day');
  for (;;) {
    for (const slot of slotsOfDay(day.format('YYYY-MM-DD'), closures))
      if (slot.getTime() > now.getTime()) yield slot;
    day.add(1, 'day');
  }
}

/** Midnight of the current local day: "from today on" for the booked-slots calendar. */
export const startOfLocalDay = (now: Date): Date => local(now).startOf('day').toDate();

/** An appointment stops counting as the patient's active one once its slot is over. */
export const slotIsOver = (date: Date, now: Date): boolean => date.getTime() + SLOT_MS <= now.getTime();

/** The local calendar day (`YYYY-MM-DD` in Atlantic/Canary) of an instant. */
export const localDayOf = (instant: Date): string => local(instant).format('YYYY-MM-DD');

/** Minutes after local midnight (Atlantic/Canary) of an instant. */
export const localMinuteOfDay = (instant: Date): number => {
  const wall = local(instant);
  return wall.hours() * 60 + wall.minutes();
};
