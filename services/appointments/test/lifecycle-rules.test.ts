import type { AppointmentStatus } from '@crm/contracts';
import {
  centreDayRange,
  checkInOpen,
  isCurrent,
  sweepOutcome,
  transitionRefusal,
  type Initiator,
  type Target,
} from '../src/domain/lifecycle.rules';
import { canary } from './support/slots';

const MIN = 60_000;
const start = new Date(canary('2027-03-10 10:00'));
const at = (minutes: number) => new Date(start.getTime() + minutes * MIN);
const appointment = (status: AppointmentStatus) => ({ date: start, status });

describe('the check-in window', () => {
  it('is open from 2 hours before the start to 30 minutes after it, both ends included', () => {
    expect(checkInOpen(appointment('booked'), at(-121))).toBe(false);
    expect(checkInOpen(appointment('booked'), at(-120))).toBe(true);
    expect(checkInOpen(appointment('booked'), at(30))).toBe(true);
    expect(checkInOpen(appointment('booked'), at(31))).toBe(false);
  });

  it('keeps a booked appointment current until it closes, a checked-in one until it ends', () => {
    expect(isCurrent(appointment('booked'), at(30))).toBe(true);
    expect(isCurrent(appointment('booked'), at(31))).toBe(false);
    expect(isCurrent(appointment('checkedIn'), at(600))).toBe(true);
    expect(isCurrent(appointment('attended'), at(0))).toBe(false);
  });
});

describe('which transition is allowed (README, "Statuses")', () => {
  const cases: Array<[AppointmentStatus, Target, Initiator, number, string | undefined]> = [
    // check-in
    ['booked', 'checkedIn', 'kiosk', -60, undefined],
    ['booked', 'checkedIn', 'staff', -180, 'outsideCheckInWindow'],
    ['booked', 'checkedIn', 'staff', 45, 'outsideCheckInWindow'],
    ['checkedIn', 'checkedIn', 'kiosk', 0, 'alreadyCheckedIn'],
    ['cancelled', 'checkedIn', 'staff', 0, 'ended'],
    // attended
    ['checkedIn', 'attended', 'staff', -100, undefined],
    ['booked', 'attended', 'staff', -60, undefined],
    ['booked', 'attended', 'staff', -180, 'tooEarly'],
    ['booked', 'attended', 'record', -3000, 'tooEarly'],
    ['booked', 'attended', 'record', -121, 'tooEarly'],
    ['booked', 'attended', 'record', -120, undefined],
    ['checkedIn', 'attended', 'record', -130, undefined],
    ['noShow', 'attended', 'record', 0, 'ended'],
    ['attended', 'attended', 'staff', 0, 'ended'],
    // no-show
    ['booked', 'noShow', 'staff', -1, 'tooEarly'],
    ['booked', 'noShow', 'staff', 0, undefined],
    ['checkedIn', 'noShow', 'staff', 60, 'checkedIn'],
    ['checkedIn', 'noShow', 'system', 60, 'checkedIn'],
    // cancel
    ['attended', 'cancelled', 'staff', 0, 'ended'],
    ['checkedIn', 'cancelled', 'staff', 0, undefined],
    ['booked', 'cancelled', 'staff', 600, undefined],
    ['booked', 'cancelled', 'patient', -1, undefined],
    ['booked', 'cancelled', 'patient', 0, 'started'],
    ['checkedIn', 'cancelled', 'patient', -30, 'checkedIn'],
    ['booked', 'cancelled', 'kiosk', -121, undefined],
    ['booked', 'cancelled', 'kiosk', -120, 'started'],
    ['checkedIn', 'cancelled', 'kiosk', -121, 'checkedIn'],
    // delete
    ['checkedIn', 'deleted', 'staff', 0, undefined],
    ['noShow', 'deleted', 'staff', 0, 'ended'],
  ];
  it.each(cases)('%s → %s by %s, %d min from the start: %s', (status, to, initiator, minutes, expected) => {
    expect(transitionRefusal(appointment(status), to, initiator, at(minutes))).toBe(expected);
  });
});

describe('the no-show sweep', () => {
  it('ends a booked appointment 30 minutes after its end as noShow, not a minute earlier', () => {
    expect(sweepOutcome(appointment('booked'), at(44))).toBeUndefined();
    expect(sweepOutcome(appointment('booked'), at(45))).toBe('noShow');
  });

  it('leaves a checked-in appointment for staff until its day is over, then closes it as attended', () => {
    expect(sweepOutcome(appointment('checkedIn'), new Date(canary('2027-03-10 23:59')))).toBeUndefined();
    expect(sweepOutcome(appointment('checkedIn'), new Date(canary('2027-03-11 00:00')))).toBe('attended');
    expect(sweepOutcome(appointment('cancelled'), new Date(canary('2027-03-12 00:00')))).toBeUndefined();
  });
});

describe('the days of the agenda', () => {
  it('are local days in Atlantic/Canary, 23 and 25 hours long when the clocks change', () => {
    const hours = (day: string) => {
      const { from, to } = centreDayRange(day);
      return (to.getTime() - from.getTime()) / 3_600_000;
    };
    expect(centreDayRange('2027-01-15').from.toISOString()).toBe('2027-01-15T00:00:00.000Z');
    expect(centreDayRange('2027-07-15').from.toISOString()).toBe('2027-07-14T23:00:00.000Z');
    expect(hours('2027-03-28')).toBe(23);
    expect(hours('2027-10-31')).toBe(25);
  });
});
