import {
  addDuration,
  coerceNumber,
  DURATION_MATCH_TOLERANCE_DAYS,
  matchDurationOption,
  parseIsoDate,
  parseNumber,
  parseRelativeDuration,
  relativeDurationToDate,
  roundCents,
} from '../src';

describe('numbers (number and price fields coerce to numbers, fallback 0)', () => {
  it.each([
    [19, 19],
    ['19', 19],
    ['24.58', 24.58],
    ['24,58', 24.58],
    [' 10 ', 10],
    ['-3', -3],
    ['.5', 0.5],
  ])('reads %p as the number %p', (input, expected) => {
    expect(parseNumber(input)).toEqual({ kind: 'number', value: expected });
    expect(coerceNumber(input)).toBe(expected);
  });

  it.each([undefined, null, '', '   '])('reads %p as empty, which the form coerces to 0', (input) => {
    expect(parseNumber(input)).toEqual({ kind: 'empty' });
    expect(coerceNumber(input)).toBe(0);
  });

  it.each(['abc', '1.2.3', '1e5', '12 €', true, {}, [], Number.NaN, Number.POSITIVE_INFINITY, '0x10'])(
    'refuses %p as a number on the server, and the form falls back to 0',
    (input) => {
      expect(parseNumber(input)).toEqual({ kind: 'invalid' });
      expect(coerceNumber(input)).toBe(0);
    },
  );

  it('rounds money to cents without binary noise', () => {
    expect(roundCents(19 + 24.58 + 10)).toBe(53.58);
    expect(roundCents(1.005)).toBe(1.01);
    expect(roundCents(0.1 + 0.2)).toBe(0.3);
    expect(roundCents(-2.345)).toBe(-2.35);
  });
});

describe('relative durations', () => {
  it.each([
    ['10 años', { amount: 10, unit: 'years' }],
    ['1 año', { amount: 1, unit: 'years' }],
    ['5 anios', { amount: 5, unit: 'years' }],
    ['6 meses', { amount: 6, unit: 'months' }],
    ['1 mes', { amount: 1, unit: 'months' }],
    ['2 semanas', { amount: 2, unit: 'weeks' }],
    ['1 semana', { amount: 1, unit: 'weeks' }],
    ['3 días', { amount: 3, unit: 'days' }],
    ['1 día', { amount: 1, unit: 'days' }],
    ['3 dias', { amount: 3, unit: 'days' }],
    ['10 AÑOS', { amount: 10, unit: 'years' }],
    ['10años', { amount: 10, unit: 'years' }],
    ['  4 años (conductores de 65 a 70) ', { amount: 4, unit: 'years' }],
  ])('reads %p', (text, expected) => {
    expect(parseRelativeDuration(text)).toEqual(expected);
  });

  it.each(['años', '0 años', 'diez años', '10 horas', '10 añosx', '2026-01-01', '', 10, null])(
    'does not read %p as a duration',
    (text) => {
      expect(parseRelativeDuration(text)).toBeUndefined();
    },
  );

  const appointment = new Date('2026-11-25T10:15:00.000Z');

  it.each([
    ['10 años', '2036-11-25T10:15:00.000Z'],
    ['6 meses', '2027-05-25T10:15:00.000Z'],
    ['2 semanas', '2026-12-09T10:15:00.000Z'],
    ['3 días', '2026-11-28T10:15:00.000Z'],
  ])('counts %p from the appointment date', (text, expected) => {
    expect(relativeDurationToDate(text, appointment)?.toISOString()).toBe(expected);
  });

  it('clamps to the last day of a shorter month instead of rolling over', () => {
    expect(addDuration(new Date('2026-01-31T09:00:00Z'), { amount: 1, unit: 'months' }).toISOString()).toBe(
      '2026-02-28T09:00:00.000Z',
    );
    expect(addDuration(new Date('2028-02-29T09:00:00Z'), { amount: 1, unit: 'years' }).toISOString()).toBe(
      '2029-02-28T09:00:00.000Z',
    );
    expect(addDuration(new Date('2026-11-30T09:00:00Z'), { amount: 3, unit: 'months' }).toISOString()).toBe(
      '2027-02-28T09:00:00.000Z',
    );
  });

  it('maps a stored date back to the option whose date is within 15 days', () => {
    const options = ['10 años', '5 años', '1 año', '6 meses'];
    expect(matchDurationOption(new Date('2036-11-25T10:15:00Z'), appointment, options)).toBe('10 años');
    expect(matchDurationOption(new Date('2031-12-05T00:00:00Z'), appointment, options)).toBe('5 años');
    expect(matchDurationOption(new Date('2027-05-10T10:15:00Z'), appointment, options)).toBe('6 meses');
    expect(DURATION_MATCH_TOLERANCE_DAYS).toBe(15);
  });

  it('maps to no option when the stored date is more than 15 days from every option', () => {
    const options = ['10 años', '5 años'];
    expect(matchDurationOption(new Date('2031-12-11T10:15:01Z'), appointment, options)).toBeUndefined();
    expect(matchDurationOption(new Date('2031-12-10T10:15:00Z'), appointment, options)).toBe('5 años');
  });

  it('picks the nearest option when two are within the tolerance', () => {
    expect(
      matchDurationOption(new Date('2026-12-08T00:00:00Z'), appointment, ['2 semanas', '3 semanas']),
    ).toBe('2 semanas');
  });
});

describe('ISO dates', () => {
  it.each([
    ['2026-05-01', '2026-05-01T00:00:00.000Z'],
    ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00.000Z'],
    ['2026-05-01T10:00:00.123+01:00', '2026-05-01T09:00:00.123Z'],
    ['2026-05-01T10:00Z', '2026-05-01T10:00:00.000Z'],
  ])('reads %p', (text, iso) => {
    expect(parseIsoDate(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-02-30',
    '2026-02-30T10:00:00Z',
    '2026-13-01',
    '01/05/2026',
    '2026-05-01T10:00:00',
    'mañana',
    20260501,
    '',
  ])('refuses %p', (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });
});
