import { isDuplicateKey, violatedField } from '../src/duplicate-key';

const FIELDS = ['slotKey', 'activePatientKey'] as const;

describe('reading a duplicate key error', () => {
  it('names the index from MongoDB keyPattern or keyValue', () => {
    const error = {
      code: 11000,
      keyPattern: { activePatientKey: 1 },
      keyValue: { activePatientKey: 'p1' },
      message: 'E11000',
    };
    expect(isDuplicateKey(error)).toBe(true);
    expect(violatedField(error, FIELDS)).toBe('activePatientKey');
    expect(violatedField({ code: 11000, keyValue: { slotKey: 'x' } }, FIELDS)).toBe('slotKey');
  });

  it("names the index from MongoDB's message", () => {
    const message =
      'E11000 duplicate key error collection: appointments.appointments index: slotKey_1 dup key: { slotKey: "2026-11-23T09:15:00.000Z" }';
    expect(violatedField({ code: 11000, message }, FIELDS)).toBe('slotKey');
  });

  it('cannot tell from FerretDB 1.24, which names only the collection', () => {
    const error = {
      code: 11000,
      message: 'E11000 duplicate key error collection: stack_x_appointments.appointments',
    };
    expect(isDuplicateKey(error)).toBe(true);
    expect(violatedField(error, FIELDS)).toBeUndefined();
  });

  it("recognises FerretDB's update-path violation and ignores other errors", () => {
    expect(
      isDuplicateKey({
        code: 1,
        message: 'ERROR: duplicate key value violates unique constraint "x_slotkey_idx" (SQLSTATE 23505)',
      }),
    ).toBe(true);
    expect(isDuplicateKey({ code: 2, message: 'bad value' })).toBe(false);
    expect(isDuplicateKey(undefined)).toBe(false);
  });
});
