import { describe, expect, it } from '@jest/globals';
import type { CentreProfile } from '@crm/contracts';
import { CENTRE_PROFILE_SEED } from '@crm/contracts';
import { bodyOf, draftOf, profileErrors, typedNumber } from './profile-draft';

const loaded = { ...CENTRE_PROFILE_SEED, version: 7, updatedAt: '2030-01-01T00:00:00.000Z' } as CentreProfile;

describe('the centre profile editor', () => {
  it('shows numbers the Spanish way and the phone grouped', () => {
    const draft = draftOf(loaded);
    expect(draft.values['prices.dgtFees.10']).toBe('24,58');
    expect(draft.values.phone).toBe('+34 928 123 456');
  });

  it('sends the whole profile: edits applied, parts it does not show kept as loaded', () => {
    const closures = {
      localHolidays: [{ date: '2030-09-08', name: 'Virgen del Pino' }],
      closures: [{ from: '2030-08-01', to: '2030-08-15', reason: 'Obras' }],
      shortenedDays: [{ date: '2030-12-24', closesAt: '12:00' }],
    };
    const withClosures: CentreProfile = { ...loaded, closures };
    const draft = draftOf(withClosures);
    draft.values.phone = '+34 922 555 666';
    draft.values['prices.checkUp'] = '23,50';
    const body = bodyOf(withClosures, draft) as unknown as Record<string, unknown>;
    expect(body).toMatchObject({ phone: '+34 922 555 666', prices: { checkUp: 23.5, currency: 'EUR' } });
    expect(body.closures).toEqual(closures);
    expect(body).not.toHaveProperty('version');
    expect(body).not.toHaveProperty('updatedAt');
    expect(body.openingHours).toEqual(CENTRE_PROFILE_SEED.openingHours);
  });

  it('leaves what is not a number as typed, for the server to name', () => {
    expect(typedNumber('19')).toBe(19);
    expect(typedNumber(' 9,83 ')).toBe(9.83);
    expect(typedNumber('diecinueve')).toBe('diecinueve');
  });

  it('places the server refusals by path, the rest in the general box', () => {
    const error = {
      message: 'Datos no válidos',
      errors: [
        { field: 'prices.checkUp', message: 'El precio del reconocimiento: no puede ser negativo' },
        { field: 'openingHours.0.to', message: 'La hora de cierre debe ser posterior a la de apertura' },
        { message: 'Otra cosa' },
      ],
    };
    expect(profileErrors(error)).toEqual({
      fields: {
        'prices.checkUp': 'El precio del reconocimiento: no puede ser negativo',
        'openingHours.0.to': 'La hora de cierre debe ser posterior a la de apertura',
      },
      general: 'Otra cosa',
    });
  });
});
