import {
  appointmentFact,
  centreDay,
  isGridSlot,
  isNewerRecord,
  pendingCentsOf,
  recordFact,
  slotsOfDay,
} from '../src/domain/facts';
import { daysBetween, summarize } from '../src/domain/summary';

const data = (date: string, channel: 'patient' | 'staff' | 'kiosk' = 'patient') => ({
  id: 'a1',
  date,
  channel,
});
const counts = (fact: { counts: Array<{ k: string; v: number }> }) =>
  Object.fromEntries(fact.counts.map(({ k, v }) => [k, v]));

describe('reporting facts', () => {
  it('dates a fact on the appointment’s day at the centre (summer UTC+1, winter UTC+0)', () => {
    expect(centreDay('2024-06-03T23:30:00Z')).toBe('2024-06-04');
    expect(centreDay('2024-01-15T23:30:00Z')).toBe('2024-01-15');
  });

  it('counts grid slots of opening weekdays only (a walk-in minute and a Saturday are not)', () => {
    expect(isGridSlot(new Date('2024-06-03T08:00:00Z'))).toBe(true); // Monday 09:00
    expect(isGridSlot(new Date('2024-06-03T10:02:00Z'))).toBe(false); // 11:02
    expect(isGridSlot(new Date('2024-06-08T08:00:00Z'))).toBe(false); // Saturday
    expect(slotsOfDay('2024-06-03')).toBe(28);
    expect(slotsOfDay('2024-06-09')).toBe(0);
  });

  it('decides a refund by the window before the start, and releases the grid slot', () => {
    const early = appointmentFact('cancelled', data('2024-06-05T08:00:00Z'), '2024-06-04T07:59:00Z', 24);
    const late = appointmentFact('cancelled', data('2024-06-05T08:00:00Z'), '2024-06-04T08:00:00Z', 24);
    expect(counts(early)).toEqual({
      '2024-06-05|cancelled': 1,
      '2024-06-05|refundable': 1,
      '2024-06-05|gridReleased': 1,
    });
    expect(counts(late)).toEqual({ '2024-06-05|cancelled': 1, '2024-06-05|gridReleased': 1 });
    expect(early._id).toBe('a1:cancelled');
  });

  it('keys a booking by channel, and a record by its certificate type; newer revisions win', () => {
    expect(
      counts(appointmentFact('booked', data('2024-06-03T10:02:00Z', 'kiosk'), '2024-06-03T10:00:00Z', 24)),
    ).toEqual({
      '2024-06-03|booked': 1,
      '2024-06-03|walkIns': 1,
      '2024-06-03|chKiosk': 1,
    });
    const record = recordFact(
      {
        id: 'a1',
        dateId: 'a1',
        billing: { gross: 54, currency: 'EUR', certificateType: 'Estudios', revision: 2 },
      },
      '2024-06-03T09:00:00Z',
      new Date('2024-06-03T08:00:00Z'),
    )!;
    expect(counts(record)).toEqual({
      '2024-06-03|revenue': 54,
      '2024-06-03|records': 1,
      '2024-06-03|cert|EUR|Estudios': 54,
    });
    expect(recordFact({ id: 'a1', dateId: 'a1' }, '2024-06-03T09:00:00Z')).toBeUndefined();
    expect(
      isNewerRecord({ revision: 2, occurredAt: new Date(0) }, { revision: 1, occurredAt: new Date(1) }),
    ).toBe(true);
    expect(
      isNewerRecord({ revision: 1, occurredAt: new Date(5) }, { revision: 1, occurredAt: new Date(5) }),
    ).toBe(false);
  });

  it('lists every day of a range, with totals over the days', () => {
    expect(daysBetween('2024-02-27', '2024-03-01')).toEqual([
      '2024-02-27',
      '2024-02-28',
      '2024-02-29',
      '2024-03-01',
    ]);
    const summary = summarize('2024-06-03', '2024-06-04', [], 24);
    expect(summary.days).toHaveLength(2);
    expect(summary.totals).toMatchObject({ booked: 0, slots: 56, occupancy: 0, noShowRate: 0, revenue: 0 });
  });
});

describe('pendingCentsOf', () => {
  const booked = (appointmentId: string, priceCents?: number) => ({
    kind: 'booked' as const,
    appointmentId,
    ...(priceCents !== undefined ? { priceCents } : {}),
  });
  const moved = (kind: 'taken' | 'refunded', appointmentId: string, cents: number) => ({
    kind,
    appointmentId,
    cents,
  });

  it('owes each live appointment its price (the booked one, else the fallback) minus what was kept, never below 0', () => {
    const day = [booked('a', 2000), booked('b'), booked('c', 1900), booked('d', 1900)];
    const money = [
      moved('taken', 'a', 500), // a owes 15 €
      moved('taken', 'c', 2500), // c paid extras: owes nothing, and covers nobody else
      moved('taken', 'd', 1900),
      moved('refunded', 'd', 1900), // d was given its money back: owes 19 €
    ];
    expect(pendingCentsOf(day, money, 1900)).toBe(1500 + 1900 + 0 + 1900);
  });

  it('owes nothing for cancelled, deleted or no-show appointments', () => {
    const day = [
      booked('a'),
      { kind: 'cancelled' as const, appointmentId: 'a' },
      booked('b'),
      { kind: 'deleted' as const, appointmentId: 'b' },
      booked('c'),
      { kind: 'noShow' as const, appointmentId: 'c' },
      booked('e'),
      { kind: 'attended' as const, appointmentId: 'e' },
    ];
    expect(pendingCentsOf(day, [], 1900)).toBe(1900);
  });
});
