import { foldName, patientsNamed, suggestPatients } from '../src/patient-picker/patient-search';

const patients = [
  { id: '1', name: 'José Pérez', email: 'jose.perez@example.test' },
  { id: '2', name: 'José Pérez', email: 'pepe@example.test' },
  { id: '3', name: 'Pedro Suárez Medina', email: 'pedro@example.test' },
  { id: '4', name: 'María José Núñez', email: 'mjn@example.test' },
];

describe('patient search of "Seleccione un paciente"', () => {
  it('folds case, accents and spaces', () => {
    expect(foldName('  JOSÉ   Pérez ')).toBe('jose perez');
    expect(foldName('Núñez')).toBe('nunez');
  });

  it('suggests by every word typed, ignoring case and accents, whole-name starts first', () => {
    expect(suggestPatients(patients, 'jose perez').map((p) => p.id)).toEqual(['1', '2']);
    expect(suggestPatients(patients, 'jose').map((p) => p.id)).toEqual(['1', '2', '4']);
    expect(suggestPatients(patients, 'nunez maria').map((p) => p.id)).toEqual(['4']);
    expect(suggestPatients(patients, 'pepe@').map((p) => p.id)).toEqual(['2']);
    expect(suggestPatients(patients, '   ')).toEqual([]);
    expect(suggestPatients(patients, 'nadie')).toEqual([]);
  });

  it('matches a whole name only, and keeps two patients with the same name apart', () => {
    expect(patientsNamed(patients, 'jose perez').map((p) => p.id)).toEqual(['1', '2']);
    expect(patientsNamed(patients, 'PEDRO SUAREZ MEDINA').map((p) => p.id)).toEqual(['3']);
    expect(patientsNamed(patients, 'Pedro Suárez')).toEqual([]);
    expect(patientsNamed(patients, '')).toEqual([]);
  });
});
