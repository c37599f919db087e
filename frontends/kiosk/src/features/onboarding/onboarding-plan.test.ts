import { planAfterLookup } from './onboarding-plan';
import { patientIdOf } from './types';

describe('planAfterLookup', () => {
  it('asks an unknown e-mail for name and phone, to create the patient', () => {
    expect(planAfterLookup(null)).toEqual({
      next: 'details',
      operation: 'create',
      asks: { name: true, phone: true },
      name: '',
      phone: '',
    });
  });

  it('books a known patient with name and phone straight away', () => {
    expect(planAfterLookup({ id: 'p1', name: 'Ana Díaz', phone: '34612345678' })).toEqual({
      next: 'book',
      operation: 'update',
      name: 'Ana Díaz',
      phone: '34612345678',
      patientId: 'p1',
    });
  });

  it('asks a known patient only for the phone, with the name prefilled', () => {
    expect(planAfterLookup({ id: 'p1', name: 'Ana Díaz' })).toMatchObject({
      next: 'details',
      operation: 'update',
      asks: { name: false, phone: true },
      name: 'Ana Díaz',
      patientId: 'p1',
    });
  });

  it('asks a known patient only for the name when it is blank', () => {
    expect(planAfterLookup({ pacientId: 'p2', name: '  ', phone: '+34 612 345678' })).toMatchObject({
      next: 'details',
      asks: { name: true, phone: false },
      phone: '34612345678',
      patientId: 'p2',
    });
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
