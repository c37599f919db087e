import { describe, expect, it } from '@jest/globals';
import { agendaActions, countsInTotal, minutesWaited, waitedText } from './agenda-labels';

describe('the agenda labels', () => {
  it('counts whole minutes since the check-in, never below zero', () => {
    const now = Date.parse('2026-11-23T10:30:00Z');
    expect(minutesWaited('2026-11-23T10:17:30Z', now)).toBe(12);
    expect(minutesWaited('2026-11-23T10:31:00Z', now)).toBe(0);
    expect(minutesWaited('not a date', now)).toBe(0);
  });

  it('says how long the patient has waited', () => {
    expect(waitedText(0)).toBe('Acaba de llegar');
    expect(waitedText(1)).toBe('Esperando 1 minuto');
    expect(waitedText(12)).toBe('Esperando 12 minutos');
  });

  it('offers check-in, attended and no-show for a booked appointment that has started; only attended once checked in; nothing after', () => {
    const date = '2026-11-23T10:00:00Z';
    const started = Date.parse(date);
    expect(agendaActions({ status: 'booked', date }, started)).toEqual({
      checkIn: true,
      attended: true,
      noShow: true,
    });
    expect(agendaActions({ status: 'checkedIn', date }, started)).toEqual({
      checkIn: false,
      attended: true,
      noShow: false,
    });
    for (const status of ['attended', 'noShow', 'cancelled', 'deleted'] as const) {
      expect(agendaActions({ status, date }, started)).toEqual({
        checkIn: false,
        attended: false,
        noShow: false,
      });
    }
  });

  it('offers no "No presentado" before the appointment has started', () => {
    const date = '2026-11-23T10:00:00Z';
    expect(agendaActions({ status: 'booked', date }, Date.parse(date) - 1)).toEqual({
      checkIn: true,
      attended: true,
      noShow: false,
    });
  });

  it('leaves cancelled and deleted appointments out of the day total', () => {
    expect(
      ['booked', 'checkedIn', 'attended', 'noShow'].every((status) => countsInTotal({ status } as never)),
    ).toBe(true);
    expect(countsInTotal({ status: 'cancelled' })).toBe(false);
    expect(countsInTotal({ status: 'deleted' })).toBe(false);
  });
});
