import { NEW_PATIENT_ASKS, planAfterProof } from './onboarding-plan';
import { patientIdOf } from './types';

describe('planAfterProof', () => {
  it('registers the arrival at once when the account lacks nothing', () => {
    expect(planAfterProof({ missing: [] }, '042917')).toEqual({ next: 'arrival' });
  });

  it('asks only what the account lacks, with the e-mailed code', () => {
    expect(planAfterProof({ missing: ['phone'] }, '042917')).toEqual({
      next: 'details',
      asks: { name: false, phone: true },
    });
    expect(planAfterProof({ missing: ['name', 'phone'] }, '042917')).toEqual({
      next: 'details',
      asks: NEW_PATIENT_ASKS,
    });
  });

  it('asks nothing with a booking code (it does not allow completing the account)', () => {
    expect(planAfterProof({ missing: ['phone'] }, 'KXR4T7')).toEqual({ next: 'arrival' });
  });
});

describe('patientIdOf', () => {
  it('reads id, else pacientId, else _id', () => {
    expect(patientIdOf({ id: 'a', pacientId: 'b', _id: 'c' })).toBe('a');
    expect(patientIdOf({ pacientId: 'b', _id: 'c' })).toBe('b');
    expect(patientIdOf({ _id: 'c' })).toBe('c');
    expect(patientIdOf({})).toBeUndefined();
    expect(patientIdOf(undefined)).toBeUndefined();
  });
});
