import moment from 'moment-timezone';
import type { AppointmentsService } from '../../services/appointments/src/app';
import { bookedAt } from '../../services/appointments/test/support/fixtures';
import { BOOTSTRAP, type Stack } from './product';

const CENTRE_TZ = 'Atlantic/Canary';

/** Today's date at the centre, "YYYY-MM-DD". */
export const centreToday = (now = Date.now()) => moment.tz(now, CENTRE_TZ).format('YYYY-MM-DD');

/** The longest offset the browser tests ask for (minutes ahead). */
const LONGEST_OFFSET_MINUTES = 120;

/**
 * An instant `minutes` from now (negative: ago) that is still today at the centre, keeping the order
 * of the offsets whatever the clock: when less than two hours of the day are left, every offset ahead
 * is scaled into what is left (so "in 20 min" stays before "in 90 min", both today and both inside the
 * check-in window); just after midnight an offset into yesterday becomes the start of today.
 */
export function todayAt(minutes: number, now = Date.now()): Date {
  const today = moment.tz(now, CENTRE_TZ);
  if (minutes < 0) {
    const wanted = moment.tz(now + minutes * 60_000, CENTRE_TZ);
    return (wanted.isSame(today, 'day') ? wanted : today.clone().startOf('day')).toDate();
  }
  const leftMs = today.clone().endOf('day').valueOf() - now;
  if (leftMs > (LONGEST_OFFSET_MINUTES + 1) * 60_000) return new Date(now + minutes * 60_000);
  return new Date(now + Math.floor((leftMs * minutes) / (LONGEST_OFFSET_MINUTES + 1)));
}

/**
 * The next free grid slot today that the check-in window already covers (start within 2 h from
 * now, and later than now): what a patient could book online for today right now. Undefined when
 * the centre is closed for the rest of the window (evenings, weekends).
 */
export function bookableSlotSoon(taken: string[], now = Date.now()): string | undefined {
  const takenTimes = new Set(taken.map((t) => Date.parse(t)));
  const day = moment.tz(now, CENTRE_TZ).startOf('day');
  if (day.isoWeekday() > 5) return undefined;
  const windows = [
    [9 * 60, 13 * 60],
    [17 * 60, 20 * 60],
  ];
  for (const [from, to] of windows) {
    for (let minute = from; minute < to; minute += 15) {
      const t = day.clone().add(minute, 'minutes').valueOf();
      // Some room after now: the booking must still be in the future when the server checks it.
      if (t > now + 2 * 60_000 && t <= now + 110 * 60_000 && !takenTimes.has(t))
        return new Date(t).toISOString();
    }
  }
  return undefined;
}

export interface TodayAppointment {
  id: string;
  date: string;
  /** What the patient types at the kiosk to check in. */
  bookingCode: string;
  /** `online`: booked by the patient through POST /dates; `fixture`: written through the service's repository. */
  how: 'online' | 'fixture';
}

/**
 * Gives the patient an appointment today whose check-in window is open: booked online by the
 * patient (POST /dates) when the clock leaves a free slot within the next 2 hours; otherwise — the
 * centre is closed now (evening, weekend) — written through the appointments service's repository
 * (services/appointments/test/support/fixtures.ts) `minutes` from now, which no call can book.
 */
export async function appointmentToday(
  stack: Stack,
  patient: { id: string; name: string; email: string; password: string },
  minutes = 20,
): Promise<TodayAppointment> {
  const booked = await stack.api.get<string[]>('/dates/booked');
  const slot = bookableSlotSoon(booked.body ?? []);
  if (slot) {
    const token = await stack.signIn(patient.email, patient.password);
    const response = await stack.api.post<{ id: string; date: string; bookingCode: string }>(
      '/dates',
      { date: slot },
      token,
    );
    if (response.status === 201) {
      const { id, date, bookingCode } = response.body;
      return { id, date, bookingCode, how: 'online' };
    }
  }
  return fixtureAppointment(stack, patient, todayAt(minutes));
}

/** An appointment at any instant (past ones included), through the service's repository. */
export async function fixtureAppointment(
  stack: Stack,
  patient: { id: string; name: string; email: string },
  date: Date,
): Promise<TodayAppointment> {
  const service = stack.components.appointments!.handle as AppointmentsService;
  const appointment = await bookedAt(
    service,
    { id: patient.id, name: patient.name, email: patient.email, phone: '34612345678' },
    date,
  );
  return {
    id: appointment.id,
    date: appointment.date.toISOString(),
    bookingCode: appointment.bookingCode!,
    how: 'fixture',
  };
}

/** A doctor's token, for API calls made "elsewhere" (another screen, the reception desk). */
export const doctorToken = (stack: Stack) => stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
