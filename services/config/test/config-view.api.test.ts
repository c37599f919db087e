import { RECORDS_VIEW, type Role, type ViewConfigView } from '@crm/contracts';
import { listenForMessages, outboxDrained } from '@crm/testing';
import { MEDICAL_CERTIFICATE_FIELDS } from '@crm/view-config';
import { startStack, type Stack } from '../../../test-support/stack';
import type { ConfigService } from '../src/app';
import { CALLER_KINDS, tokensByRole, type CallerKind } from './factories/callers';
import { freshView, smallForm } from './factories/views';

const SEEDED = `/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`;

/**
 * Every config endpoint × every kind of caller → the expected status (PUT with an empty body, so
 * nothing changes): 401/403 where the caller may not call it, the endpoint's own answer otherwise.
 */
const MATRIX: Array<[method: 'get' | 'put', path: string, expected: Record<CallerKind, number>]> = [
  ['get', SEEDED, { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 }],
  [
    'get',
    `${SEEDED}&version=1`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    '/config/view?view=nobody/has/this',
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  ['get', '/config/view', { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 }],
  ['put', SEEDED, { anonymous: 401, PACIENT: 403, DOCTOR: 403, ADMIN: 400, SERVICE_ACCOUNT: 403 }],
];

let stack: Stack;
let service: ConfigService;
let tokens: Record<Role, string>;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'config'] });
  service = stack.components.config!.handle as ConfigService;
  tokens = await tokensByRole(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const getView = (view: string, token = tokens.DOCTOR, extra = '') =>
  stack.api.get<ViewConfigView & { message?: string }>(
    `/config/view?view=${encodeURIComponent(view)}${extra}`,
    token,
  );
const putView = (view: string, body: unknown, token = tokens.ADMIN) =>
  stack.api.put(`/config/view?view=${encodeURIComponent(view)}`, body, token);

describe('authorization matrix', () => {
  const cases = MATRIX.flatMap(([method, path, expected]) =>
    CALLER_KINDS.map(
      (caller) => [`${method.toUpperCase()} ${path}`, caller, method, path, expected[caller]] as const,
    ),
  );

  it.each(cases)('%s as %s', async (_label, caller, method, path, status) => {
    const token = caller === 'anonymous' ? undefined : tokens[caller];
    const response =
      method === 'get' ? await stack.api.get(path, token) : await stack.api.put(path, {}, token);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
  });

  it('refuses a patient and a kiosk on the service itself, without the gateway in front', async () => {
    const direct = `${stack.components.config!.url}${SEEDED}`;
    expect((await fetch(direct)).status).toBe(401);
    for (const rol of ['PACIENT', 'SERVICE_ACCOUNT'] as const) {
      expect((await fetch(direct, { headers: { authorization: `Bearer ${tokens[rol]}` } })).status).toBe(403);
    }
  });
});

describe('GET /config/view', () => {
  it('answers the seeded medical certificate form, version 1, to a doctor', async () => {
    const response = await getView(RECORDS_VIEW);
    expect(response.status).toBe(200);
    expect(response.body.view).toBe(RECORDS_VIEW);
    expect(response.body.version).toBe(1);
    expect(response.body.fields).toHaveLength(MEDICAL_CERTIFICATE_FIELDS.length);
    // Served exactly as seeded (a picklist with its parse rule and options, in order).
    const validity = response.body.fields.find((field) => field.name === 'validity');
    expect(validity).toEqual(MEDICAL_CERTIFICATE_FIELDS.find((field) => field.name === 'validity'));
    expect(validity).toMatchObject({ fieldType: 'PICKLIST', parseOutput: 'date', required: true });
    expect(validity!.options!.slice(0, 2)).toEqual(['10 años', '5 años']);
    expect(response.body.fields.find((field) => field.name === 'total')!.price).toEqual({
      type: 'GROSS',
      currency: 'EUR',
    });
  });

  it('answers 404 for a view without configuration, and for a version that does not exist', async () => {
    expect(await getView('unknown/view')).toMatchObject({ status: 404, body: { message: 'View not found' } });
    expect(await getView(RECORDS_VIEW, tokens.DOCTOR, '&version=99')).toMatchObject({
      status: 404,
      body: { message: 'View version not found' },
    });
  });

  it.each([
    ['no view', '/config/view'],
    ['an invalid view name', '/config/view?view=..%2Fetc'],
    ['two views', `${SEEDED}&view=x`],
    ['an operator', '/config/view?view[$ne]=x'],
    ['a bad version', `${SEEDED}&version=zero`],
  ])('answers 400 to %s', async (_label, path) => {
    expect((await stack.api.get(path, tokens.DOCTOR)).status).toBe(400);
  });

  it('seeds once: starting again keeps what is stored', async () => {
    expect(await service.views.seed(RECORDS_VIEW, MEDICAL_CERTIFICATE_FIELDS)).toBe(false);
    expect(await service.models.ViewVersion.countDocuments({ view: RECORDS_VIEW, version: 1 })).toBe(1);
  });
});

describe('PUT /config/view', () => {
  it('stores a new version, keeps the old one readable, and announces config.view.updated.v1 through the outbox', async () => {
    const view = freshView('replace');
    const listener = await listenForMessages<{ name: string; data: unknown }>(
      stack.amqpUrl,
      stack.exchange,
      'config.view.updated.v1',
    );
    try {
      const created = await putView(view, { fields: smallForm('Resultado v1') });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ view, version: 1 });
      const replaced = await putView(view, { fields: smallForm('Resultado v2') });
      expect(replaced.status).toBe(200);
      expect(replaced.body).toMatchObject({ view, version: 2 });
      expect(replaced.body.fields[0]).toMatchObject({
        name: 'result',
        label: 'Resultado v2',
        required: true,
        visible: true,
      });

      expect((await getView(view)).body).toMatchObject({
        version: 2,
        fields: [{ label: 'Resultado v2' }, {}, {}, {}, {}],
      });
      expect((await getView(view, tokens.DOCTOR, '&version=1')).body).toMatchObject({
        version: 1,
        fields: [{ label: 'Resultado v1' }, {}, {}, {}, {}],
      });

      const event = await listener.waitFor(
        (message) =>
          (message.body.data as { version: number }).version === 2 &&
          (message.body.data as { view: string }).view === view,
      );
      expect(event.body).toMatchObject({ name: 'config.view.updated.v1', data: { view, version: 2 } });
      expect(Object.keys(event.body.data as object).sort()).toEqual(['version', 'view']);
      // The relay removes the entry right after the broker's confirm (which may come after delivery).
      await outboxDrained(service.models.ViewVersion, { view });
    } finally {
      await listener.close();
    }
  });

  it('gives concurrent replacements a version each', async () => {
    const view = freshView('concurrent');
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => putView(view, { fields: smallForm(`Resultado ${i}`) })),
    );
    expect(answers.map((answer) => answer.status).every((status) => status === 200 || status === 201)).toBe(
      true,
    );
    expect(answers.map((answer) => answer.body.version).sort()).toEqual([1, 2, 3, 4]);
    expect((await getView(view)).body.version).toBe(4);
  });

  it('does not let a doctor change a configuration', async () => {
    const view = freshView('doctor');
    expect((await putView(view, { fields: smallForm() }, tokens.DOCTOR)).status).toBe(403);
    expect((await getView(view)).status).toBe(404);
  });

  const invalid: Array<[string, unknown, string]> = [
    ['no fields', {}, 'fields'],
    ['an empty list', { fields: [] }, 'fields'],
    [
      'repeated names',
      { fields: [...smallForm(), { name: 'fee', label: 'Otra', fieldType: 'NUMBER' }] },
      'fields.5.name',
    ],
    [
      'a conditional target that does not exist',
      {
        fields: [
          { ...smallForm()[0], conditionalField: { ifSelected: 'Apto con restricciones', field: 'ghost' } },
        ],
      },
      'fields.0.conditionalField.field',
    ],
    [
      'a picklist without options',
      { fields: [{ name: 'a', label: 'A', fieldType: 'PICKLIST' }] },
      'fields.0.options',
    ],
    [
      'two NET fields',
      {
        fields: [
          ...smallForm(),
          { name: 'net2', label: 'Neto 2', fieldType: 'NUMBER', price: { type: 'NET' } },
        ],
      },
      'fields.5.price.type',
    ],
    [
      'an unknown field type',
      { fields: [{ name: 'a', label: 'A', fieldType: 'COLOUR' }] },
      'fields.0.fieldType',
    ],
    [
      'a dotted field name',
      {
        fields: [
          { name: 'a_b', label: 'A', fieldType: 'TEXT' },
          { name: 'a-b', label: 'B', fieldType: 'TEXT' },
        ],
      },
      'fields.1.name',
    ],
  ];

  it.each(invalid)(
    'refuses %s with 400 and the field at fault, storing nothing',
    async (_label, body, field) => {
      const view = freshView('invalid');
      const response = await putView(view, body);
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
      expect((await getView(view)).status).toBe(404);
    },
  );

  it('refuses operator keys in the body', async () => {
    const response = await putView(freshView('operator'), {
      fields: [{ name: 'a', label: 'A', fieldType: 'TEXT', $where: '1' }],
    });
    expect(response.status).toBe(400);
  });
});
