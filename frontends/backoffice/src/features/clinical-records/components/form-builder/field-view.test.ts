import { describe, expect, it } from '@jest/globals';
import { centreDateTime, formatCentreDate, formatCentreDateTime } from './centre-time';
import {
  fieldProblem,
  fieldView,
  NEGATIVE_AMOUNT_MESSAGE,
  NOT_A_NUMBER_MESSAGE,
  textCounter,
} from './field-view';
import { isAlreadyRecorded, refusalText, saveFailureDialog } from './save-errors';
import { SEEDED_FIELDS } from './seeded-form.fixture';

/** A failed call as @crm/web-kit's ApiError carries it (status, message, errors). */
const apiError = (status: number, message: string, errors: { message: string; field?: string }[] = []) =>
  Object.assign(new Error(message), { status, errors });

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

describe('what a field says while it is typed', () => {
  const field = (name: string) => SEEDED_FIELDS.find((candidate) => candidate.name === name)!;

  it('refuses what is not a number in a number field (never a silent 0), accepting "72", "72.5", "72,5"', () => {
    for (const typed of ['abc', '12abc', '1e3', '7 2', '--1'])
      expect(fieldProblem(field('weight'), typed)).toBe(NOT_A_NUMBER_MESSAGE);
    for (const typed of ['72', '72.5', '72,5', ' 72 ', '', undefined])
      expect(fieldProblem(field('weight'), typed)).toBeUndefined();
    expect(fieldProblem(field('checkupFee'), 'diecinueve')).toBe(NOT_A_NUMBER_MESSAGE);
  });

  it('refuses a negative price, not a negative measure', () => {
    expect(fieldProblem(field('discount'), '-5')).toBe(NEGATIVE_AMOUNT_MESSAGE);
    expect(fieldProblem(field('checkupFee'), '-19')).toBe(NEGATIVE_AMOUNT_MESSAGE);
    expect(fieldProblem({ ...field('weight'), name: 'temperatureDelta' }, '-1')).toBeUndefined();
  });

  it('leaves texts, picklists and computed totals alone', () => {
    expect(fieldProblem(field('observations'), 'abc')).toBeUndefined();
    expect(fieldProblem(field('hearing'), 'abc')).toBeUndefined();
    expect(fieldProblem(field('total'), 'abc')).toBeUndefined();
  });

  it('counts a text against its 100-character limit', () => {
    expect(textCounter('')).toBe('0/100');
    expect(textCounter('120/80 mmHg ')).toBe('12/100');
    expect(textCounter(undefined)).toBe('0/100');
  });
});

describe('which dialog a failed save shows', () => {
  it('the 100-character dialog when the message contains "0 and 100 characters"', () => {
    expect(saveFailureDialog({ message: 'Texts must be between 0 and 100 characters' })).toBe('textLimit');
    expect(
      saveFailureDialog({
        message: 'Datos',
        errors: [{ message: 'Texts must be between 0 and 100 characters' }],
      }),
    ).toBe('textLimit');
  });

  it('the server’s own Spanish reason for a refusal (4xx): a second record is not a server problem', () => {
    const conflict = apiError(
      409,
      'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra',
      [
        {
          message: 'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra',
          field: 'dateId',
        },
      ],
    );
    expect(saveFailureDialog(conflict)).toBe('refused');
    expect(refusalText(conflict)).toBe(
      'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra',
    );
    expect(isAlreadyRecorded(conflict)).toBe(true);
    const invalid = apiError(400, 'El campo «Peso (kg)» debe ser un número', [
      { message: 'El campo «Peso (kg)» debe ser un número', field: 'metadata.weight' },
    ]);
    expect([saveFailureDialog(invalid), refusalText(invalid), isAlreadyRecorded(invalid)]).toEqual([
      'refused',
      'El campo «Peso (kg)» debe ser un número',
      false,
    ]);
    expect(isAlreadyRecorded(apiError(409, 'La cita está cancelada', [{ message: 'x' }]))).toBe(false);
    expect(saveFailureDialog(apiError(404, 'Registro no encontrado'))).toBe('refused');
  });

  it('Spanish words for refusals whose message is not for users (401, 403, 413, 429) or missing', () => {
    expect(refusalText(apiError(401, 'TokenExpiredError'))).toMatch(/^Su sesión ha terminado/);
    expect(refusalText(apiError(403, 'Forbidden'))).toMatch(/no tiene permiso/);
    expect(refusalText(apiError(413, 'Payload Too Large'))).toMatch(/demasiado grande/);
    expect(refusalText(apiError(429, 'Too Many Requests'))).toMatch(/demasiadas peticiones/);
    expect(refusalText(apiError(400, ''))).toBe('El servidor no aceptó los datos de la historia clínica.');
    for (const status of [400, 401, 403, 404, 409, 413, 422, 429])
      expect(saveFailureDialog(apiError(status, 'x'))).toBe('refused');
  });

  it('the server-trouble dialog for "Internal server error" and any other failure', () => {
    expect(saveFailureDialog(apiError(500, 'Internal server error'))).toBe('serverTrouble');
    expect(saveFailureDialog(apiError(503, 'Servicio no disponible'))).toBe('serverTrouble');
    expect(saveFailureDialog(apiError(0, 'Network error'))).toBe('serverTrouble');
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
