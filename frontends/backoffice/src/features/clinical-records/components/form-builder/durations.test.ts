import { describe, expect, it } from '@jest/globals';
import type { ViewField } from '@crm/contracts';
import { validateMetadata, viewFieldsSchema } from '@crm/view-config';
import { durationHint } from './field-view';
import { defaultValues, storedToInput, valuesFromRecord } from './form-values';
import { buildMetadata, createRecordPayload } from './payload';
import { APPOINTMENT_DATE, DRIVING_RENEWAL, SEEDED_FIELDS } from './seeded-form.fixture';

/**
 * A date picklist with every unit of a relative duration, a free-text duration and a DATE with a duration
 * default.
 */
const fields: ViewField[] = viewFieldsSchema.parse([
  {
    name: 'validity',
    label: 'Vigencia',
    fieldType: 'PICKLIST',
    parseOutput: 'date',
    options: ['10 años', '6 meses', '2 semanas', '3 días', '1 año', '1 mes'],
  },
  { name: 'review', label: 'Revisión', fieldType: 'TEXT', parseOutput: 'date' },
  { name: 'due', label: 'Vence', fieldType: 'DATE', defaultValue: '1 año' },
]);
const validity = fields[0]!;
const DAY = 86_400_000;
const sent = (value: string, anchor = APPOINTMENT_DATE) =>
  buildMetadata(fields, { validity: value, review: '', due: '' }, anchor).validity!.value;

describe('relative durations become dates counted from the appointment', () => {
  it('"10 años", "6 meses", "2 semanas", "3 días" from 2026-11-25 10:15 UTC', () => {
    expect(sent('10 años')).toBe('2036-11-25T10:15:00.000Z');
    expect(sent('6 meses')).toBe('2027-05-25T10:15:00.000Z');
    expect(sent('2 semanas')).toBe('2026-12-09T10:15:00.000Z');
    expect(sent('3 días')).toBe('2026-11-28T10:15:00.000Z');
  });

  it('counts calendar months: the 31st clamps to the end of a shorter month, 29 February to the 28th', () => {
    expect(sent('1 mes', new Date('2027-01-31T09:00:00.000Z'))).toBe('2027-02-28T09:00:00.000Z');
    expect(sent('1 año', new Date('2028-02-29T09:00:00.000Z'))).toBe('2029-02-28T09:00:00.000Z');
  });

  it('converts a duration typed in a date-parsed TEXT; leaves an ISO date as typed', () => {
    const review = (value: string) =>
      buildMetadata(fields, { validity: '', review: value, due: '' }, APPOINTMENT_DATE).review!.value;
    expect(review('3 Días')).toBe('2026-11-28T10:15:00.000Z');
    expect(review('2027-01-15')).toBe('2027-01-15');
  });

  it('shows a DATE whose default is a duration as the day it stands for', () => {
    expect(defaultValues(fields, APPOINTMENT_DATE).due).toBe('2027-11-25');
  });

  it('tells the doctor the day a duration becomes, in the centre’s dd/MM/yyyy', () => {
    expect(durationHint(validity, '10 años', APPOINTMENT_DATE)).toBe('Hasta el 25/11/2036');
    expect(durationHint(validity, '', APPOINTMENT_DATE)).toBeUndefined();
    expect(durationHint(fields[2]!, '2027-11-25', APPOINTMENT_DATE)).toBeUndefined();
  });

  it('is accepted by the server as the same option', () => {
    const result = validateMetadata(
      fields,
      buildMetadata(fields, { validity: '6 meses', review: '', due: '' }, APPOINTMENT_DATE),
      {
        anchorDate: APPOINTMENT_DATE,
      },
    );
    expect(result.ok && result.metadata.validity).toMatchObject({
      value: '2027-05-25T10:15:00.000Z',
      selectedLabel: '6 meses',
    });
  });
});

describe('editing: a stored date maps back to its option within 15 days', () => {
  const tenYears = new Date('2036-11-25T10:15:00.000Z').getTime();
  const input = (time: number) => storedToInput(validity, new Date(time).toISOString(), APPOINTMENT_DATE);

  it('maps the exact date, and dates up to 15 days either side, to "10 años"', () => {
    expect(input(tenYears)).toBe('10 años');
    expect(input(tenYears + 15 * DAY)).toBe('10 años');
    expect(input(tenYears - 15 * DAY)).toBe('10 años');
  });

  it('maps nothing once the date is more than 15 days away from every option', () => {
    expect(input(tenYears + 15 * DAY + 60_000)).toBe('');
    expect(input(tenYears - 16 * DAY)).toBe('');
  });

  it('picks the nearest option when several are within 15 days ("2 semanas" vs "3 días")', () => {
    const appointment = APPOINTMENT_DATE.getTime();
    expect(input(appointment + 4 * DAY)).toBe('3 días');
    expect(input(appointment + 12 * DAY)).toBe('2 semanas');
  });

  it('keeps an option stored as such, and shows nothing for a value that is no date', () => {
    expect(storedToInput(validity, '6 meses', APPOINTMENT_DATE)).toBe('6 meses');
    expect(storedToInput(validity, 'mañana', APPOINTMENT_DATE)).toBe('');
  });

  it('round-trips a saved seeded record: stored → edit form → the values typed at creation', () => {
    const typed = { ...defaultValues(SEEDED_FIELDS, APPOINTMENT_DATE), ...DRIVING_RENEWAL };
    const payload = createRecordPayload(SEEDED_FIELDS, typed, {
      userId: 'u',
      dateId: 'd',
      date: APPOINTMENT_DATE,
    });
    const stored = validateMetadata(SEEDED_FIELDS, payload.metadata, { anchorDate: APPOINTMENT_DATE });
    if (!stored.ok) throw new Error(JSON.stringify(stored.issues));
    expect(stored.metadata.validity!.value).toBe('2036-11-25T10:15:00.000Z');

    const edit = valuesFromRecord(SEEDED_FIELDS, stored.metadata, APPOINTMENT_DATE);
    expect(edit).toMatchObject({
      ...DRIVING_RENEWAL,
      weight: '72,5', // stored as the number 72.5, shown as typed (not "72.5")
      checkupFee: '19',
      dgtFee: '24.58',
      taxType: 'Porcentaje',
      restrictions: '', // not shown, so not stored: back to its (empty) default
    });
  });
});
