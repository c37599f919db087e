import { CENTRE_PROFILE_SEED, NO_CLOSURES } from '@crm/contracts';
import { closingTime, KIOSK_SESSION_MAX_SECONDS, kioskSessionSeconds } from '../src/domain/kiosk-session';

/** The seeded centre: Monday to Friday, 09:00–13:00 and 17:00–20:00 (Atlantic/Canary). */
const seeded = { openingHours: CENTRE_PROFILE_SEED.openingHours, closures: NO_CLOSURES };
const at = (iso: string) => new Date(iso);

describe('kiosk sessions end at closing time, 12 hours at most (docs/product/kiosk.md#session)', () => {
  it('closes at the end of the day’s last opening period, in Canary time on both sides of a clock change', () => {
    // Winter (UTC+0): 20:00 local is 20:00Z; summer (UTC+1): 19:00Z.
    expect(closingTime(at('2026-11-23T08:00:00Z'), seeded)).toEqual(at('2026-11-23T20:00:00Z'));
    expect(closingTime(at('2027-06-14T07:00:00Z'), seeded)).toEqual(at('2027-06-14T19:00:00Z'));
    // The Monday after summer time starts (28 March 2027) and the Wednesday before it (Holy Week).
    expect(closingTime(at('2027-03-29T06:00:00Z'), seeded)).toEqual(at('2027-03-29T19:00:00Z'));
    expect(closingTime(at('2027-03-24T06:00:00Z'), seeded)).toEqual(at('2027-03-24T20:00:00Z'));
  });

  it('lasts until closing time when that comes first: signed in at 08:00 → 12 h, at 14:00 → 6 h, at 19:30 → 30 min', () => {
    expect(kioskSessionSeconds(at('2026-11-23T07:30:00Z'), seeded)).toBe(KIOSK_SESSION_MAX_SECONDS);
    expect(kioskSessionSeconds(at('2026-11-23T08:00:00Z'), seeded)).toBe(12 * 3600);
    expect(kioskSessionSeconds(at('2026-11-23T14:00:00Z'), seeded)).toBe(6 * 3600);
    expect(kioskSessionSeconds(at('2026-11-23T19:30:00Z'), seeded)).toBe(30 * 60);
  });

  it('gives 12 hours when the centre does not open again that day: after closing, at weekends, on holidays', () => {
    expect(kioskSessionSeconds(at('2026-11-23T20:30:00Z'), seeded)).toBe(KIOSK_SESSION_MAX_SECONDS);
    expect(kioskSessionSeconds(at('2026-11-28T10:00:00Z'), seeded)).toBe(KIOSK_SESSION_MAX_SECONDS);
    // 8 December: Inmaculada Concepción, a Tuesday in 2026.
    expect(kioskSessionSeconds(at('2026-12-08T10:00:00Z'), seeded)).toBe(KIOSK_SESSION_MAX_SECONDS);
  });

  it('follows the profile: a shortened day, a local holiday, other hours', () => {
    const profile = {
      openingHours: [
        { days: [1, 2, 3, 4, 5], from: '08:00', to: '15:00' },
        { days: [6], from: '09:00', to: '13:00' },
      ],
      closures: {
        localHolidays: [{ date: '2026-11-24', name: 'Fiesta local' }],
        closures: [],
        shortenedDays: [{ date: '2026-11-25', closesAt: '12:00' }],
      },
    };
    expect(kioskSessionSeconds(at('2026-11-23T09:00:00Z'), profile)).toBe(6 * 3600);
    expect(kioskSessionSeconds(at('2026-11-24T09:00:00Z'), profile)).toBe(KIOSK_SESSION_MAX_SECONDS);
    expect(kioskSessionSeconds(at('2026-11-25T09:00:00Z'), profile)).toBe(3 * 3600);
    expect(kioskSessionSeconds(at('2026-11-28T10:00:00Z'), profile)).toBe(3 * 3600);
  });
});
