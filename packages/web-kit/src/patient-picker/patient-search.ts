/**
 * Finding a patient by name in "Seleccione un paciente": case, accents and extra spaces do not count
 * ("jose  perez" finds "José Pérez"), and two patients with the same name stay two (told apart by
 * e-mail, picked by id).
 */
import { foldName as foldNameKey } from '@crm/contracts/name-search';
export interface PatientLike {
  id: string;
  name: string;
  email: string;
}

/** Lower case, without accents (ñ too: "nunez" finds "Núñez") and with single spaces. */
export const foldName = (text: string): string => foldNameKey(text).replace(/\s+/g, ' ');

/** How many suggestions the picker lists at most (the doctor keeps typing to narrow them). */
export const MAX_SUGGESTIONS = 50;

/**
 * The patients whose name (or e-mail) contains every word typed, in any order, those whose name
 * starts with what was typed first, then by name and e-mail.
 */
export function suggestPatients<P extends PatientLike>(patients: readonly P[], query: string): P[] {
  const folded = foldName(query);
  if (!folded) return [];
  const words = folded.split(' ');
  const scored = patients
    .map((patient) => ({ patient, name: foldName(patient.name), email: patient.email.toLowerCase() }))
    .filter(({ name, email }) => words.every((word) => name.includes(word) || email.includes(word)));
  scored.sort(
    (a, b) =>
      Number(b.name.startsWith(folded)) - Number(a.name.startsWith(folded)) ||
      a.name.localeCompare(b.name, 'es') ||
      a.email.localeCompare(b.email),
  );
  return scored.slice(0, MAX_SUGGESTIONS).map(({ patient }) => patient);
}

/** The patients whose whole name is what was typed, ignoring case, accents and spaces. */
export const patientsNamed = <P extends PatientLike>(patients: readonly P[], typed: string): P[] => {
  const folded = foldName(typed);
  return folded ? patients.filter((patient) => foldName(patient.name) === folded) : [];
};
