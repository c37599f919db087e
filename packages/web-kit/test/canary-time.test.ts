import { describe, expect, it } from '@jest/globals';
import { ROOM_SLOT_RULES } from '@crm/contracts';
import {
  formatDateTime,
  freeRoomSlots,
  freeSlots,
  isWeekend,
  monthGrid,
  ROOM_FIRST_HOUR,
  ROOM_HOURS_PER_DAY,
} from '../src/time/canary-time';

const BEFORE = Date.parse('2026-01-01T00:00:00Z');

describe('room slots (hourly from the day + 8 h over 10 h, Atlantic/Canary)', () => {
  it('uses the rooms service numbers', () => {
    expect(ROOM_FIRST_HOUR).toBe(ROOM_SLOT_RULES.firstHour);
    expect(ROOM_HOURS_PER_DAY).toBe(ROOM_SLOT_RULES.hoursPerDay);
  });

  it('offers 08:00 to 17:00 local time on a winter weekday (UTC+0)', () => {
    const slots = freeRoomSlots('2026-02-10', [], BEFORE);
    expect(slots).toHaveLength(10);
    expect(slots[0]).toBe('2026-02-10T08:00:00.000Z');
    expect(slots[9]).toBe('2026-02-10T17:00:00.000Z');
  });

  it('follows summer time (UTC+1): 08:00 local is 07:00Z', () => {
    const slots = freeRoomSlots('2026-07-14', [], BEFORE);
    expect(slots[0]).toBe('2026-07-14T07:00:00.000Z');
    expect(slots.map(formatDateTime)[0]).toBe('14/07/2026 08:00');
  });

  it('has no slots on weekends', () => {
    expect(isWeekend('2026-02-14')).toBe(true);
    expect(freeRoomSlots('2026-02-14', [], BEFORE)).toEqual([]);
    expect(freeRoomSlots('2026-02-15', [], BEFORE)).toEqual([]);
  });

  it('removes reserved slots, compared as instants whatever their notation', () => {
    const slots = freeRoomSlots(
      '2026-02-10',
      ['2026-02-10T10:00:00Z', '2026-02-10T12:00:00.000+01:00'],
      BEFORE,
    );
    expect(slots).toHaveLength(8);
    expect(slots).not.toContain('2026-02-10T10:00:00.000Z');
    expect(slots).not.toContain('2026-02-10T11:00:00.000Z');
  });

  it('does not offer slots that have started', () => {
    const now = Date.parse('2026-02-10T12:30:00Z');
    expect(freeRoomSlots('2026-02-10', [], now)[0]).toBe('2026-02-10T13:00:00.000Z');
  });
});

describe('appointment slots (09-13 and 17-20 every 15 minutes)', () => {
  it('offers 28 slots on a free weekday, none on weekends, booked ones removed', () => {
    expect(freeSlots('2026-02-10', [], BEFORE)).toHaveLength(16 + 12);
    expect(freeSlots('2026-02-14', [], BEFORE)).toEqual([]);
    const slots = freeSlots('2026-02-10', ['2026-02-10T09:15:00.000Z'], BEFORE);
    expect(slots.slice(0, 2)).toEqual(['2026-02-10T09:00:00.000Z', '2026-02-10T09:30:00.000Z']);
    expect(slots[slots.length - 1]).toBe('2026-02-10T19:45:00.000Z');
  });
});

describe('month grid', () => {
  it('starts on Sunday: February 2026 begins on a Sunday, March 2026 on a Sunday, December 2026 on a Tuesday', () => {
    expect(monthGrid(2026, 1).leading).toBe(0);
    expect(monthGrid(2026, 11).leading).toBe(2);
    expect(monthGrid(2026, 11).days).toHaveLength(31);
  });
});
