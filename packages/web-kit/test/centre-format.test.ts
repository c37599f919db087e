import {
  addPrices,
  describeOpeningHours,
  formatHours,
  formatPrice,
  groupOpeningHours,
  phoneHref,
} from '../src/centre/format';

describe('centre facts as the site prints them (es-ES)', () => {
  it('prints whole prices without cents and others with a decimal comma', () => {
    expect(formatPrice(21)).toBe('21 €');
    expect(formatPrice(31.47)).toBe('31,47 €');
    expect(formatPrice(9.8)).toBe('9,80 €');
    expect(formatPrice(0)).toBe('0 €');
  });

  it('adds prices to the cent (21 + 10 + 31.47 = 62.47)', () => {
    expect(addPrices(21, 10, 31.47)).toBe(62.47);
    expect(formatPrice(addPrices(0.1, 0.2))).toBe('0,30 €');
  });

  it('links a stored phone with its country code', () => {
    expect(phoneHref('34911222333')).toBe('tel:+34911222333');
  });

  it('groups opening periods by their days', () => {
    const hours = [
      { days: [1, 2, 3, 4, 5], from: '17:00', to: '20:00' },
      { days: [1, 2, 3, 4, 5], from: '09:00', to: '13:00' },
    ];
    expect(groupOpeningHours(hours)).toEqual([
      {
        days: [1, 2, 3, 4, 5],
        range: true,
        daysLabel: 'lunes a viernes',
        periods: ['9:00 a 13:00', '17:00 a 20:00'],
      },
    ]);
    expect(describeOpeningHours(hours)).toBe('de lunes a viernes de 9:00 a 13:00 y de 17:00 a 20:00');
  });

  it('names scattered days one by one, weekends in the plural', () => {
    expect(
      describeOpeningHours([
        { days: [6], from: '10:00', to: '12:30' },
        { days: [1, 3, 5], from: '08:30', to: '14:00' },
      ]),
    ).toBe('los lunes, miércoles y viernes de 8:30 a 14:00 y los sábados de 10:00 a 12:30');
  });

  it('writes the refund window in hours', () => {
    expect(formatHours(24)).toBe('24 horas');
    expect(formatHours(1)).toBe('1 hora');
  });
});
