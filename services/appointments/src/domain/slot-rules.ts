import moment from 'moment-timezone';
import {
  CENTRE_TIME_ZONE,
  isOpeningWeekday,
  isWithinOpeningHours,
  SLOT_MINUTES,
  slotMinutesOfDay,
} from '@crm/contracts';

/**
 * The bookable instants of SPEC §9, as pure functions of an instant and "now".
 * Opening hours are wall-clock times in Atlantic/Canary, so every check converts the instant to
 * that zone first: 09:00 there is 09:00Z in winter and 08:00Z in summer.
 */

/** The kiosk's immediate booking must fall within this window around now (SPEC §6: now + 60 s). */
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

/** The slots of one local calendar day (`YYYY-MM-DD` in Atlantic/Canary), weekends included as empty. */
export function slotsOfDay(day: string): Date[] {
  const midnight = moment.tz(day, 'YYYY-MM-DD', true, CENTRE_TIME_ZONE);
  if (!midnight.isValid() || !isOpeningWeekday(midnight.isoWeekday())) return [];
  // Built from wall-clock fields, not by adding milliseconds to midnight, so DST days come out right.
  return slotMinutesOfDay().map((minute) =>
    midnight
      .clone()
      .hours(Math.floor(minute / 60))
      .minutes(minute % 60)
      .toDate(),
  );
}

/** Bookable slots after `now`, in order, day by day (for tests, benchmarks and the front end's calendar). */
export function* upcomingSlots(now: Date): Generator<Date> {
  const day = local(now).startOf('day');
  for (;;) {
    for (const slot of slotsOfDay(day.format('YYYY-MM-DD'))) if (slot.getTime() > now.getTime()) yield slot;
    day.add(1, 'day');
  }
}

/** Midnight of the current local day: "from today on" for the booked-slots calendar. */
export const startOfLocalDay = (now: Date): Date => local(now).startOf('day').toDate();

/** An appointment stops counting as the patient's active one once its slot is over. */
export const slotIsOver = (date: Date, now: Date): boolean => date.getTime() + SLOT_MS <= now.getTime();

/** The local calendar day (`YYYY-MM-DD` in Atlantic/Canary) of an instant. */
export const localDayOf = (instant: Date): string => local(instant).format('YYYY-MM-DD');
