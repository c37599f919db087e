import { unconfirmedReleaseAt } from '../src/booking-rules';

const at = (iso: string) => new Date(iso);

describe('when an unconfirmed patient’s own booking is released', () => {
  it('24 hours after booking, or 2 hours before the start, whichever comes first', () => {
    expect(unconfirmedReleaseAt(at('2026-12-10T10:00:00Z'), at('2026-12-01T09:00:00Z'))).toEqual(
      at('2026-12-02T09:00:00Z'),
    );
    // Booked at 09:54 for 12:30: released at 10:30 (said at booking time).
    expect(unconfirmedReleaseAt(at('2026-11-30T12:30:00Z'), at('2026-11-30T09:54:00Z'))).toEqual(
      at('2026-11-30T10:30:00Z'),
    );
  });

  it('never when the booking was made after that moment had passed (09:51 for 11:15)', () => {
    expect(unconfirmedReleaseAt(at('2026-11-30T11:15:00Z'), at('2026-11-30T09:51:00Z'))).toBeUndefined();
    expect(unconfirmedReleaseAt(at('2026-11-30T11:15:00Z'), at('2026-11-30T09:15:00Z'))).toBeUndefined();
  });
});
