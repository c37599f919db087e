import { centreClosuresBody, dayStatus, easterSunday, publicHolidays, slotOpenOnDay } from '../src';

describe('easterSunday (Computus)', () => {
  it.each([
    [2024, 3, 31],
    [2025, 4, 20],
    [2026, 4, 5],
    [2027, 3, 28],
    [2038, 4, 25], // the latest possible date
    [2285, 3, 22], // the earliest possible date
    [2000, 4, 23],
  ])('%i → %i/%i', (year, month, day) => {
    expect(easterSunday(year)).toEqual({ month, day });
  });
});

describe('publicHolidays', () => {
  it('2026: the ten national holidays and the two of the Canary Islands, Easter-based ones included', () => {
    expect(publicHolidays(2026).map(({ date, scope }) => `${date} ${scope}`)).toEqual([
      '2026-01-01 national',
      '2026-01-06 national',
      '2026-04-02 canarias', // Jueves Santo
      '2026-04-03 national', // Viernes Santo
      '2026-05-01 national',
      '2026-05-30 canarias', // Día de Canarias
      '2026-08-15 national',
      '2026-10-12 national',
      '2026-11-01 national',
      '2026-12-06 national',
      '2026-12-08 national',
      '2026-12-25 national',
    ]);
  });

  it('2027: Holy Week in March', () => {
    const byName = Object.fromEntries(publicHolidays(2027).map((h) => [h.name, h.date]));
    expect(byName['Jueves Santo']).toBe('2027-03-25');
    expect(byName['Viernes Santo']).toBe('2027-03-26');
    expect(byName['Día de Canarias']).toBe('2027-05-30');
    expect(byName['Natividad del Señor']).toBe('2027-12-25');
  });
});

describe('dayStatus', () => {
  const closures = centreClosuresBody.parse({
    localHolidays: [{ date: '2026-09-08', name: 'Virgen del Pino' }],
    closures: [{ from: '2026-07-13', to: '2026-07-17', reason: 'Obras en la consulta' }],
    shortenedDays: [{ date: '2026-12-24', closesAt: '12:00', reason: 'Nochebuena' }],
  });

  it('closes on public holidays without any configuration', () => {
    expect(dayStatus('2026-12-25')).toEqual({ open: false, reason: 'Natividad del Señor' });
    expect(dayStatus('2027-03-25')).toEqual({ open: false, reason: 'Jueves Santo' });
    expect(dayStatus('2026-12-23')).toEqual({ open: true });
  });

  it('closes on local holidays and every day of a closure, both ends included', () => {
    expect(dayStatus('2026-09-08', closures)).toEqual({ open: false, reason: 'Virgen del Pino' });
    for (const day of ['2026-07-13', '2026-07-15', '2026-07-17'])
      expect(dayStatus(day, closures)).toEqual({ open: false, reason: 'Obras en la consulta' });
    expect(dayStatus('2026-07-18', closures).open).toBe(true);
    expect(dayStatus('2026-07-12', closures).open).toBe(true);
  });

  it('a shortened day keeps the slots that end by its closing time', () => {
    const status = dayStatus('2026-12-24', closures);
    expect(status).toMatchObject({ open: true, closesAt: '12:00', closesAtMinute: 720 });
    expect(slotOpenOnDay(status, 11 * 60 + 45, 15)).toBe(true);
    expect(slotOpenOnDay(status, 12 * 60, 15)).toBe(false);
    expect(slotOpenOnDay(status, 17 * 60, 15)).toBe(false);
  });

  it('refuses a closure that ends before it starts, and impossible dates, in Spanish', () => {
    const ended = centreClosuresBody.safeParse({
      closures: [{ from: '2026-07-17', to: '2026-07-13', reason: 'x' }],
    });
    expect(ended.error?.issues[0]?.message).toBe('La fecha final no puede ser anterior a la inicial');
    const impossible = centreClosuresBody.safeParse({ localHolidays: [{ date: '2026-02-30', name: 'x' }] });
    expect(impossible.error?.issues[0]?.message).toBe('La fecha no es válida');
  });
});
