import { NO_CLOSURES } from '@crm/contracts';
import {
  isBookableSlot,
  slotIsOver,
  slotProblem,
  slotRefusal,
  slotsOfDay,
  upcomingSlots,
  walkInProblem,
  walkInRefusal,
} from '../src/domain/slot-rules';
import { canary, dstWeekdays, nextLocalDay } from './support/slots';

const NOW = new Date('2026-11-22T04:00:00Z'); // a Sunday
const at = (wallClock: string) => new Date(canary(wallClock));

describe('bookable slots (Atlantic/Canary, Monday–Friday 09:00–13:00 and 17:00–20:00, every 15 minutes)', () => {
  it.each([
    ['09:00', 'bookable'],
    ['12:45', 'bookable'],
    ['13:00', 'closed'],
    ['08:45', 'closed'],
    ['16:45', 'closed'],
    ['17:00', 'bookable'],
    ['19:45', 'bookable'],
    ['20:00', 'closed'],
    ['10:07', 'offGrid'],
    ['10:30', 'bookable'],
  ])('on a Monday %s is %s', (time, problem) => {
    expect(slotProblem(at(`2026-11-23 ${time}`), NOW) ?? 'bookable').toBe(problem);
  });

  it('refuses seconds and milliseconds off the quarter hour', () => {
    expect(slotProblem(new Date(at('2026-11-23 09:15').getTime() + 1000), NOW)).toBe('offGrid');
    expect(slotProblem(new Date(at('2026-11-23 09:15').getTime() + 1), NOW)).toBe('offGrid');
  });

  it('refuses Saturdays and Sundays', () => {
    expect(slotProblem(at('2026-11-28 10:00'), NOW)).toBe('weekend');
    expect(slotProblem(at('2026-11-29 10:00'), NOW)).toBe('weekend');
  });

  it('refuses the past and the present instant', () => {
    expect(slotProblem(at('2026-11-20 10:00'), NOW)).toBe('past');
    const slot = at('2026-11-23 10:00');
    expect(slotProblem(slot, slot)).toBe('past');
  });

  it('reads opening hours as Canary wall-clock time on both sides of the March change', () => {
    const { beforeSummer, inSummer } = dstWeekdays();
    const now = new Date();
    // Winter (UTC+0): 09:00 local is 09:00Z. Summer (UTC+1): 09:00 local is 08:00Z.
    expect(canary(`${beforeSummer} 09:00`)).toBe(`${beforeSummer}T09:00:00.000Z`);
    expect(canary(`${inSummer} 09:00`)).toBe(`${inSummer}T08:00:00.000Z`);
    expect(isBookableSlot(new Date(`${beforeSummer}T09:00:00Z`), now)).toBe(true);
    expect(slotProblem(new Date(`${beforeSummer}T08:00:00Z`), now)).toBe('closed');
    expect(isBookableSlot(new Date(`${inSummer}T08:00:00Z`), now)).toBe(true);
    expect(slotProblem(new Date(`${inSummer}T12:00:00Z`), now)).toBe('closed'); // 13:00 local
    expect(isBookableSlot(new Date(`${inSummer}T18:45:00Z`), now)).toBe(true); // 19:45 local
  });

  it('reads opening hours as Canary wall-clock time on both sides of the October change', () => {
    const { endOfSummer, inWinter } = dstWeekdays();
    const now = new Date();
    expect(isBookableSlot(new Date(`${endOfSummer}T08:00:00Z`), now)).toBe(true); // 09:00 local
    expect(slotProblem(new Date(`${inWinter}T08:00:00Z`), now)).toBe('closed'); // 08:00 local
    expect(isBookableSlot(new Date(`${inWinter}T09:00:00Z`), now)).toBe(true);
    expect(slotProblem(new Date(`${endOfSummer}T12:00:00Z`), now)).toBe('closed'); // 13:00 local
  });

  it('lists 28 slots per working day, also on days next to a clock change, and none at weekends', () => {
    const { beforeSummer, inSummer, endOfSummer, inWinter } = dstWeekdays();
    for (const day of [beforeSummer, inSummer, endOfSummer, inWinter, '2026-11-23']) {
      const slots = slotsOfDay(day);
      expect(slots).toHaveLength(28);
      expect(slots[0]!.toISOString()).toBe(canary(`${day} 09:00`));
      expect(slots[15]!.toISOString()).toBe(canary(`${day} 12:45`));
      expect(slots[16]!.toISOString()).toBe(canary(`${day} 17:00`));
      expect(slots[27]!.toISOString()).toBe(canary(`${day} 19:45`));
      expect(slots.every((slot) => isBookableSlot(slot, NOW))).toBe(true);
    }
    expect(slotsOfDay(nextLocalDay(6))).toEqual([]);
    expect(slotsOfDay('not-a-day')).toEqual([]);
  });

  it('yields upcoming slots in order, skipping the weekend', () => {
    const generator = upcomingSlots(NOW);
    const first = Array.from({ length: 30 }, () => generator.next().value!);
    expect(first[0]!.toISOString()).toBe(canary('2026-11-23 09:00'));
    expect(first[28]!.toISOString()).toBe(canary('2026-11-24 09:00'));
    expect(first.every((slot, i) => i === 0 || slot > first[i - 1]!)).toBe(true);
  });
});

describe('kiosk walk-ins', () => {
  it('accepts any instant from now to one hour ahead, on or off the grid, even at weekends', () => {
    expect(walkInProblem(new Date(NOW.getTime() + 60_000), NOW)).toBeUndefined();
    expect(walkInProblem(new Date(NOW.getTime() + 3_600_000), NOW)).toBeUndefined();
    expect(walkInProblem(new Date(NOW.getTime() + 3_600_001), NOW)).toBe('walkInWindow');
    expect(walkInProblem(new Date(NOW.getTime() - 10 * 60_000), NOW)).toBe('walkInWindow');
  });
});

describe('end of an appointment', () => {
  it('counts an appointment as over once its 15 minutes have passed', () => {
    const slot = at('2026-11-23 09:00');
    expect(slotIsOver(slot, new Date(slot.getTime() + 14 * 60_000))).toBe(false);
    expect(slotIsOver(slot, new Date(slot.getTime() + 15 * 60_000))).toBe(true);
  });
});

describe('closures and the kiosk’s opening hours', () => {
  const closures = {
    localHolidays: [],
    closures: [{ from: '2026-07-13', to: '2026-07-17', reason: 'Obras' }],
    shortenedDays: [{ date: '2026-12-24', closesAt: '12:00' }],
  };

  it('refuses a walk-in at 22:33 on a Friday night (now + 60 s)', () => {
    const now = new Date(canary('2026-11-27 22:32'));
    const when = new Date(now.getTime() + 60_000);
    expect(walkInRefusal(when, now, NO_CLOSURES)).toBe(
      'El centro está cerrado ahora: no se pueden registrar citas. El horario de citas es de 9:00 a 13:00 y de 17:00 a 20:00',
    );
    const open = new Date(canary('2026-11-27 10:32'));
    expect(walkInRefusal(new Date(open.getTime() + 60_000), open, NO_CLOSURES)).toBeUndefined();
  });

  it('with WALK_IN_HOURS=any books walk-ins at night, at weekends and on public holidays, not on days the admin closed', () => {
    const at = (wall: string) => {
      const now = new Date(canary(wall));
      return [new Date(now.getTime() + 60_000), now] as const;
    };
    expect(walkInRefusal(...at('2026-11-27 22:32'), NO_CLOSURES, 'any')).toBeUndefined();
    expect(walkInRefusal(...at('2026-11-28 03:00'), NO_CLOSURES, 'any')).toBeUndefined();
    expect(walkInRefusal(...at('2026-12-25 10:00'), NO_CLOSURES, 'any')).toBeUndefined();
    const closedByAdmin = {
      ...NO_CLOSURES,
      closures: [{ from: '2026-12-28', to: '2026-12-30', reason: 'Obras' }],
    };
    expect(walkInRefusal(...at('2026-12-29 23:00'), closedByAdmin, 'any')).toBe(
      'El centro está cerrado hoy (Obras): no se pueden registrar citas',
    );
  });

  it('refuses walk-ins on public holidays, closures and after a shortened day’s closing time', () => {
    const walkInAt = (wall: string) => {
      const now = new Date(canary(wall));
      return walkInRefusal(new Date(now.getTime() + 60_000), now, closures);
    };
    expect(walkInAt('2026-12-08 10:00')).toBe(
      'El centro está cerrado hoy (Inmaculada Concepción): no se pueden registrar citas',
    );
    expect(walkInAt('2026-07-15 10:00')).toBe(
      'El centro está cerrado hoy (Obras): no se pueden registrar citas',
    );
    expect(walkInAt('2026-12-24 11:30')).toBeUndefined();
    expect(walkInAt('2026-12-24 12:00')).toBe(
      'Hoy el centro cierra a las 12:00: ya no se pueden registrar citas',
    );
  });

  it('a holiday has no slots, a shortened day ends at its closing time', () => {
    expect(slotsOfDay('2026-12-25')).toEqual([]);
    expect(slotsOfDay('2026-07-14', closures)).toEqual([]);
    expect(
      slotsOfDay('2026-12-24', closures)
        .map((slot) => slot.toISOString())
        .at(-1),
    ).toBe(canary('2026-12-24 11:45'));
    expect(
      slotRefusal(new Date(canary('2026-12-25 10:00')), new Date(canary('2026-12-01 10:00')), closures),
    ).toBe('El centro está cerrado el 25/12/2026 (Natividad del Señor). Elija otro día');
  });
});
