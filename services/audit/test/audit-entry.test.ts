import { auditEntrySchema, auditMineQuery, auditQuery, foldName } from '@crm/contracts';
import { rowsOf } from '../src/domain/audit-entry';
import { resolveRange } from '../src/domain/date-range';

const entry = {
  at: '2026-06-01T08:30:00.000Z',
  actorId: '0123456789abcdef01234567',
  actorRol: 'DOCTOR' as const,
  action: 'record.read',
  patientIds: ['aaaaaaaaaaaaaaaaaaaaaaaa'],
  resource: 'record',
};

describe('the audit.entry.recorded.v1 contract carries identifiers, never content', () => {
  it('accepts an entry of ids, vocabulary tokens, an instant, a request id and an address', () => {
    expect(
      auditEntrySchema.safeParse({
        ...entry,
        actorName: 'Dra. Lucía Núñez',
        resourceId: 'doctor/appointments/:id',
        requestId: '4f6c1f9e-1c2b-4d7a-9a55-1b2c3d4e5f60',
        clientAddress: '2001:db8::1',
        outcome: 'failure',
      }).success,
    ).toBe(true);
  });

  it.each([
    ['free text as the action', { action: 'consultó la historia clínica' }],
    ['a resource with spaces', { resource: 'historia clinica' }],
    ['a resource id with spaces', { resourceId: 'diagnóstico: gripe' }],
    ['a 121-character name', { actorName: 'x'.repeat(121) }],
    ['a name with a line break', { actorName: 'Ana\n{"rol":"ADMIN"}' }],
    ['101 patients', { patientIds: Array.from({ length: 101 }, (_, i) => `p${i}`) }],
    ['a repeated patient', { patientIds: ['p1', 'p1'] }],
    ['an unknown role', { actorRol: 'ROOT' }],
    ['a host name as address', { clientAddress: 'evil.example' }],
    ['a date without zone', { at: '2026-06-01 08:30' }],
  ])('refuses %s', (_name, change) => {
    expect(auditEntrySchema.safeParse({ ...entry, ...change }).success).toBe(false);
  });

  it('drops any field it does not know (a body cannot ride along)', () => {
    const parsed = auditEntrySchema.parse({ ...entry, metadata: { notes: 'texto clínico' } });
    expect(parsed).not.toHaveProperty('metadata');
  });
});

describe('stored rows', () => {
  it('are one per patient named, with ids derived from the event id', () => {
    const rows = rowsOf('e1', { ...entry, patientIds: ['p1', 'p2'] });
    expect(rows.map((row) => [row.rowId, row.row, row.patientId])).toEqual([
      ['e1:0', 0, 'p1'],
      ['e1:1', 1, 'p2'],
    ]);
  });

  it('are a single row without a patient for an entry about nobody', () => {
    expect(rowsOf('e2', { ...entry, patientIds: [] }).map((row) => [row.rowId, row.patientId])).toEqual([
      ['e2:0', undefined],
    ]);
  });

  it('fold names for the search', () => {
    expect(foldName('Dra. ÁLVARO Núñez')).toBe('dra. alvaro nunez');
  });
});

describe('query parameters', () => {
  it('resolves days in the centre’s time zone (UTC+1 in summer, UTC in winter), `to` inclusive of its day', () => {
    expect(resolveRange('2026-06-01', '2026-06-01')).toEqual({
      from: new Date('2026-05-31T23:00:00.000Z'),
      to: new Date('2026-06-01T23:00:00.000Z'),
    });
    expect(resolveRange('2026-01-15', undefined)).toEqual({ from: new Date('2026-01-15T00:00:00.000Z') });
    expect(resolveRange(undefined, '2026-06-01T10:00:00+01:00')).toEqual({
      to: new Date('2026-06-01T09:00:00.000Z'),
    });
  });

  it('refuses an empty or reversed range', () => {
    expect(() => resolveRange('2026-06-02', '2026-06-01')).toThrow(
      'La fecha inicial debe ser anterior a la final',
    );
  });

  it('caps the page size at 100 and refuses unknown parameters in Spanish', () => {
    expect(auditQuery.parse({ limit: '5000' }).limit).toBe(100);
    expect(auditQuery.safeParse({ pacientId: 'x' }).error?.issues[0]?.message).toBe(
      'Parámetro de consulta no permitido',
    );
    expect(auditMineQuery.safeParse({ patientId: 'x' }).success).toBe(false);
  });
});
