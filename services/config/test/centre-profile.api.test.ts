import {
  CENTRE_PROFILE_SEED,
  RECORDS_VIEW,
  type CentreProfile,
  type Role,
  type ViewConfigView,
} from '@crm/contracts';
import { createLogger } from '@crm/server-kit';
import { eventually, listenForMessages, outboxDrained, uniqueName } from '@crm/testing';
import mongoose from 'mongoose';
import type { Stack } from '../../../test-support/stack';
import { createConfigService, type ConfigService } from '../src/app';
import { loadConfigServiceConfig } from '../src/config';
import { centreVersionModel } from '../src/data/centre-version.model';
import { MongoCentreVersionRepository } from '../src/data/centre-version.repository';
import { CentreProfileService } from '../src/domain/centre-profile.service';
import { startConfigStack } from './factories/callers';
import { centreBody, NEW_ADDRESS } from './factories/centre';

let stack: Stack;
let tokens: Record<Role, string>;
let service: ConfigService;

beforeAll(async () => {
  ({ stack, service, tokens } = await startConfigStack());
});
afterAll(async () => {
  await stack?.stop();
});

type Answer = CentreProfile & { message?: string; errors?: Array<{ message: string; field?: string }> };
const getCentre = (token?: string) => stack.api.get<Answer>('/config/centre', token);
/** As the admin unless another caller is given (`null`: without a token). */
const putCentre = (body: unknown, token: string | null = tokens.ADMIN) =>
  stack.api.put<Answer>('/config/centre', body, token ?? undefined);
const currentVersion = async () => (await getCentre()).body.version;

describe('GET /config/centre', () => {
  it('answers the seeded profile, version 1, to anyone without a token', async () => {
    const response = await getCentre();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    const { version, updatedAt, ...profile } = response.body;
    expect(profile).toEqual(CENTRE_PROFILE_SEED);
    expect(version).toBeGreaterThanOrEqual(1);
    expect(new Date(updatedAt).toISOString()).toBe(updatedAt);
  });

  it('answers the same to a signed-in patient and to the service itself without the gateway', async () => {
    expect((await getCentre(tokens.PACIENT)).status).toBe(200);
    const direct = await fetch(`${stack.components.config!.url}/config/centre`);
    expect(direct.status).toBe(200);
    expect(((await direct.json()) as CentreProfile).address).toBeDefined();
  });
});

describe('PUT /config/centre', () => {
  it('stores a new version for an admin, answers it, serves it, and announces config.centre.updated.v1', async () => {
    const listener = await listenForMessages<{ name: string; data: { version: number } }>(
      stack.amqpUrl,
      stack.exchange,
      'config.centre.updated.v1',
    );
    try {
      const before = await currentVersion();
      const response = await putCentre(centreBody({ address: NEW_ADDRESS, phone: '+34 928 000 111' }));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        version: before + 1,
        address: NEW_ADDRESS,
        phone: '34928000111',
      });
      expect(Date.parse(response.body.updatedAt)).toBeGreaterThan(Date.now() - 60_000);

      // Through the gateway, whose cache drops the old copy when the update event arrives (within a second).
      const read = await eventually(async () => {
        const answer = await getCentre();
        return answer.body.version === before + 1 ? answer : undefined;
      }, 5000);
      expect(read.body).toEqual(response.body);

      const event = await listener.waitFor((message) => message.body.data.version === before + 1);
      expect(event.body).toMatchObject({ name: 'config.centre.updated.v1', data: { version: before + 1 } });
      expect(Object.keys(event.body.data)).toEqual(['version']);
      // The relay removes the entry right after the broker's confirm.
      await outboxDrained(service.models.CentreVersion);
      // Versions are append-only: the seeded one is still there, unchanged.
      const seeded = await service.models.CentreVersion.findById(1).lean<{ profile: { address: string } }>();
      expect(seeded!.profile.address).toBe(CENTRE_PROFILE_SEED.address);
    } finally {
      await listener.close();
    }
  });

  it('gives concurrent saves a version each', async () => {
    const before = await currentVersion();
    const answers = await Promise.all(
      [1, 2, 3].map((n) => putCentre(centreBody({ subtitle: `Centro de Reconocimiento Médico ${n}` }))),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.body.version).sort()).toEqual([before + 1, before + 2, before + 3]);
    expect(await currentVersion()).toBe(before + 3);
  });

  it.each([
    ['a doctor', 403, 'DOCTOR'],
    ['a patient', 403, 'PACIENT'],
    ['the kiosk', 403, 'SERVICE_ACCOUNT'],
    ['no token', 401, null],
  ] as const)('refuses %s with %i and changes nothing', async (_label, status, role) => {
    const before = await getCentre();
    const response = await putCentre(centreBody({ address: 'Calle Falsa 1' }), role && tokens[role]);
    expect(response.status).toBe(status);
    expect(response.body.message).toEqual(expect.any(String));
    expect((await getCentre()).body).toEqual(before.body);
  });

  it('refuses a patient and a doctor on the service itself, without the gateway', async () => {
    const direct = (token?: string) =>
      fetch(`${stack.components.config!.url}/config/centre`, {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(centreBody()),
      });
    expect((await direct()).status).toBe(401);
    expect((await direct(tokens.PACIENT)).status).toBe(403);
    expect((await direct(tokens.DOCTOR)).status).toBe(403);
  });

  it.each([
    ['a bad phone', centreBody({ phone: '12345' }), 'phone'],
    ['an empty address', centreBody({ address: '   ' }), 'address'],
    ['a negative price', centreBody({ prices: { checkUp: -1 } }), 'prices.checkUp'],
    [
      'a negative DGT fee',
      centreBody({ prices: { dgtFees: { ...CENTRE_PROFILE_SEED.prices.dgtFees, '10': -5 } } }),
      'prices.dgtFees.10',
    ],
    ['a maps link that is not https', centreBody({ mapsUrl: 'javascript:alert(1)' }), 'mapsUrl'],
    [
      'closing before opening',
      centreBody({ openingHours: [{ days: [1], from: '13:00', to: '09:00' }] }),
      'openingHours.0.to',
    ],
    ['no sender name', { ...centreBody(), senderName: undefined }, 'senderName'],
  ])('refuses %s with 400 and the field at fault, storing nothing', async (_label, body, field) => {
    const before = await currentVersion();
    const response = await putCentre(body);
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(expect.any(String));
    expect(response.body.errors).toEqual(expect.arrayContaining([{ message: expect.any(String), field }]));
    expect(await currentVersion()).toBe(before);
  });

  it('lists every problem of a body at once', async () => {
    const response = await putCentre(centreBody({ phone: 'no', address: '', prices: { checkUp: -19 } }));
    expect(response.status).toBe(400);
    expect(response.body.errors!.map((error) => error.field)).toEqual(
      expect.arrayContaining(['phone', 'address', 'prices.checkUp']),
    );
  });

  it('refuses operator keys in the body', async () => {
    const response = await putCentre({ ...centreBody(), $where: '1' });
    expect(response.status).toBe(400);
  });
});

describe('seeding', () => {
  it('seeds once: starting again keeps what is stored', async () => {
    expect(await service.centre.seed()).toBe(false);
    expect(await service.models.CentreVersion.countDocuments({ _id: 1 })).toBe(1);
  });

  it('two replicas starting together store one version 1, and the clinical form takes its prices from the profile', async () => {
    const database = `${uniqueName('replicas')}_config`;
    const connection = await mongoose.createConnection(stack.mongoUrl).asPromise();
    const replicas = [0, 1].map(() =>
      createConfigService(
        loadConfigServiceConfig({ ...stack.envFor('config'), MONGO_DB: database }),
        createLogger('config-replica', 'silent'),
      ),
    );
    try {
      // An admin had changed the prices before the clinical form was ever seeded.
      const earlier = new CentreProfileService(
        new MongoCentreVersionRepository(centreVersionModel(connection.useDb(database))),
      );
      await earlier.seed(centreBody({ prices: { checkUp: 25, dgtManagementFee: 12 } }));
      await Promise.all(replicas.map((replica) => replica.start()));
      expect(await replicas[0]!.models.CentreVersion.countDocuments()).toBe(1);
      expect(await replicas[0]!.models.ViewVersion.countDocuments({ view: RECORDS_VIEW })).toBe(1);
      const form: ViewConfigView = await replicas[1]!.views.get(RECORDS_VIEW);
      const fee = (name: string) => form.fields.find((field) => field.name === name)!.defaultValue;
      expect(fee('checkupFee')).toBe(25);
      expect(fee('dgtManagement')).toBe(12);
      expect((await replicas[1]!.centre.current()).prices.checkUp).toBe(25);
    } finally {
      await Promise.all(replicas.map((replica) => replica.stop()));
      await connection.useDb(database).dropDatabase();
      await connection.close();
    }
  });
});
