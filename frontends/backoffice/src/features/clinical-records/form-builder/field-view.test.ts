import { describe, expect, it } from '@jest/globals';
import { centreDateTime, formatCentreDate, formatCentreDateTime } from './centre-time';
import { fieldView } from './field-view';
import { saveFailureDialog } from './save-errors';
import { SEEDED_FIELDS } from './seeded-form.fixture';

const view = (name: string) => fieldView(SEEDED_FIELDS.find((field) => field.name === name)!);

describe('how each field renders', () => {
  it('picks the control by type: NUMBER, TEXT, PICKLIST, DATE; NET and GROSS are computed and read-only', () => {
    expect(view('weight')).toMatchObject({ kind: 'number', required: true, readOnly: false });
    expect(view('observations')).toMatchObject({ kind: 'text', required: false });
    expect(view('hearing')).toMatchObject({ kind: 'select', required: true });
    expect(view('net')).toMatchObject({ kind: 'computed', readOnly: true, required: false });
    expect(view('total')).toMatchObject({ kind: 'computed', readOnly: true });
    expect(
      fieldView({ name: 'd', label: 'Día', fieldType: 'DATE', required: true, visible: true }),
    ).toMatchObject({ kind: 'date', required: true });
  });

  it('lists string options as value = label and {value, label} options as given', () => {
    expect(view('result').options[0]).toEqual({ value: 'Apto', label: 'Apto' });
    expect(view('dgtFee').options[0]).toEqual({ value: '24.58', label: '10 años — 24,58 €' });
  });
});

describe('which dialog a failed save shows (SPEC §8)', () => {
  it('the 100-character dialog when the message contains "0 and 100 characters"', () => {
    expect(saveFailureDialog({ message: 'Texts must be between 0 and 100 characters' })).toBe('textLimit');
    expect(
      saveFailureDialog({
        message: 'Datos',
        errors: [{ message: 'Texts must be between 0 and 100 characters' }],
      }),
    ).toBe('textLimit');
  });

  it('the server-trouble dialog for "Internal server error" and any other failure', () => {
    expect(saveFailureDialog({ message: 'Internal server error' })).toBe('serverTrouble');
    expect(saveFailureDialog({ message: 'Network error' })).toBe('serverTrouble');
    expect(saveFailureDialog(new Error('boom'))).toBe('serverTrouble');
    expect(saveFailureDialog(undefined)).toBe('serverTrouble');
  });
});

describe('the centre’s clock (Atlantic/Canary)', () => {
  it('formats dd/MM/yyyy HH:mm in winter (UTC+0) and summer (UTC+1)', () => {
    expect(formatCentreDateTime('2026-11-25T10:15:00.000Z')).toBe('25/11/2026 10:15');
    expect(centreDateTime('2026-07-01T08:00:00.000Z')).toEqual({ date: '01/07/2026', time: '09:00' });
    expect(formatCentreDate('2026-12-31T23:30:00.000Z')).toBe('31/12/2026');
    expect(formatCentreDateTime('no es fecha')).toBe('');
    expect(formatCentreDateTime(undefined)).toBe('');
  });
});
