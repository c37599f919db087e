import { daySlots, findSlotIssues, formatLocal, MAX_DAYS_AHEAD, slotProblem } from '../src/domain/room-slots';

/** 2030-01-07 is a Monday in winter (Canary = UTC+0); 2030-07-01 a Monday in summer (UTC+1). */
const NOW = new Date('2030-01-01T12:00:00Z');
const at = (iso: string) => new Date(iso);

describe('room slot rules (Atlantic/Canary)', () => {
  it.each([
    ['08:00 local, the first slot of the day', '2030-01-07T08:00:00Z'],
    ['17:00 local, the last slot of the day', '2030-01-07T17:00:00Z'],
    ['08:00 local in summer time (07:00 UTC)', '2030-07-01T07:00:00Z'],
    ['17:00 local in summer time, written with its offset', '2030-07-01T17:00:00+01:00'],
    ['a Friday', '2030-01-11T12:00:00Z'],
  ])('accepts %s', (_label, iso) => {
    expect(slotProblem(at(iso), NOW)).toBeUndefined();
  });

  it.each([
    ['07:00 local', '2030-01-07T07:00:00Z', 'outside-hours'],
    ['18:00 local', '2030-01-07T18:00:00Z', 'outside-hours'],
    ['07:00 local in summer time (06:00 UTC)', '2030-07-01T06:00:00Z', 'outside-hours'],
    ['17:00 UTC in summer (18:00 local)', '2030-07-01T17:00:00Z', 'outside-hours'],
    ['half past', '2030-01-07T09:30:00Z', 'not-on-the-hour'],
    ['a second past the hour', '2030-01-07T09:00:01Z', 'not-on-the-hour'],
    ['a millisecond past the hour', '2030-01-07T09:00:00.001Z', 'not-on-the-hour'],
    ['a Saturday', '2030-01-12T10:00:00Z', 'weekend'],
    ['a Sunday', '2030-01-13T10:00:00Z', 'weekend'],
    ['a slot in the past', '2029-12-31T10:00:00Z', 'past'],
    ['too far ahead', '2031-01-06T10:00:00Z', 'too-far'],
  ])('refuses %s', (_label, iso, problem) => {
    expect(slotProblem(at(iso), NOW)).toBe(problem);
  });

  it('refuses the slot that starts right now', () => {
    const now = at('2030-01-07T10:00:00Z');
    expect(slotProblem(now, now)).toBe('past');
    expect(slotProblem(at('2030-01-07T11:00:00Z'), now)).toBeUndefined();
  });

  it(`accepts a slot ${MAX_DAYS_AHEAD} days ahead at most`, () => {
    expect(slotProblem(at('2030-12-31T10:00:00Z'), NOW)).toBeUndefined();
  });

  it('names a repeated slot, even when written differently', () => {
    const issues = findSlotIssues(
      [at('2030-01-07T09:00:00Z'), at('2030-01-07T10:00:00+01:00'), at('2030-01-07T10:00:00Z')],
      NOW,
    );
    expect(issues).toEqual([{ instant: at('2030-01-07T09:00:00Z'), problem: 'duplicate' }]);
  });

  it('lists every broken slot of a request, and none for a valid one', () => {
    expect(findSlotIssues([at('2030-01-07T09:00:00Z'), at('2030-01-07T10:00:00Z')], NOW)).toEqual([]);
    const issues = findSlotIssues(
      [at('2030-01-12T09:00:00Z'), at('2030-01-07T09:00:00Z'), at('2030-01-07T19:00:00Z')],
      NOW,
    );
    expect(issues.map((issue) => issue.problem)).toEqual(['weekend', 'outside-hours']);
  });

  it('offers ten hourly slots from 08:00 to 17:00 local on a weekday, none on a weekend', () => {
    const winter = daySlots('2030-01-07');
    expect(winter).toHaveLength(10);
    expect(winter[0]!.toISOString()).toBe('2030-01-07T08:00:00.000Z');
    expect(winter[9]!.toISOString()).toBe('2030-01-07T17:00:00.000Z');
    expect(daySlots('2030-07-01')[0]!.toISOString()).toBe('2030-07-01T07:00:00.000Z');
    expect(daySlots('2030-01-12')).toEqual([]);
    expect(winter.every((slot) => slotProblem(slot, NOW) === undefined)).toBe(true);
  });

  it('formats instants in Canary local time for messages', () => {
    expect(formatLocal(at('2030-07-01T07:00:00Z'))).toBe('01/07/2030 08:00');
  });
});
