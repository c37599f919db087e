import mongoose, { type Connection } from 'mongoose';
import { phoneField } from '@crm/contracts';
import { OUTBOX_FIELDS } from '@crm/event-bus';
import { syncIndexes } from '@crm/server-kit/service';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { userModels, type UserModels } from '../src/data/user.model';
import { MongoUserRepository } from '../src/data/user.repository';
import { seedPatientAccounts } from '../src/data/user.seed-bulk';
import { AccountService } from '../src/domain/account.service';
import { hashPassword } from '../src/domain/password-hasher';

/**
 * The bulk seed module (bench/growth) stores patient accounts as the desk's "new patient" with a
 * password does (`createPatientByStaff`), and the patient list and look-ups find them.
 */
let connection: Connection;
let models: UserModels;
let accounts: AccountService;
const seeded = [
  { id: uniqueId(), name: 'María Gómez Ruiz', email: 'Maria.Gomez@Growth.test', phone: '612 345 678' },
  { id: uniqueId(), name: 'Álvaro Gómez Díaz', email: 'alvaro.gomez@growth.test', phone: '+34 699 111 222' },
  { id: uniqueId(), name: 'Lucía Navarro Gil', email: 'lucia.navarro@growth.test', phone: '633444555' },
];
let writtenId: string;

/** Only the account repository takes part in registering a patient with a password. */
const notUsedHere = undefined as never;

const stored = (id: string) => models.User.collection.findOne({ _id: new mongoose.Types.ObjectId(id) });

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('auth_seed') }).asPromise();
  models = userModels(connection);
  await syncIndexes(connection);
  accounts = new AccountService(
    new MongoUserRepository(models, () => undefined),
    notUsedHere,
    notUsedHere,
    notUsedHere,
    notUsedHere,
  );
  const createdAt = new Date('2021-03-01T09:00:00Z');
  const passwordHash = await hashPassword('contraseña-de-siembra');
  expect(
    await seedPatientAccounts(
      models,
      seeded.map((a) => ({ ...a, createdAt, passwordHash })),
    ),
  ).toBe(3);
  // The service's own path, with the body as `POST /auth/doctor/patient/create` validates it.
  const written = await accounts.createPatientByStaff({
    name: 'Ana Gómez Torres',
    email: 'ana.gomez@example.test',
    phone: phoneField.parse('655 666 777'),
    password: 'contraseña-de-prueba',
  });
  writtenId = written.id;
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

it('stores accounts of the same shape as the desk’s "new patient" with a password', async () => {
  // The registration's events are still in the outbox; a seeded account's were published.
  const written = documentShape((await stored(writtenId))!, OUTBOX_FIELDS);
  expect(written).toEqual(expect.arrayContaining(['passwordHash', 'phone', 'confirmed', 'createdAt']));
  for (const { id } of seeded) expect(documentShape((await stored(id))!)).toEqual(written);
});

it('stores the phone and e-mail as the service does, so the list’s searches and look-ups find them', async () => {
  const byName = await accounts.listUsers({ page: 1, limit: 10, search: 'gómez', roles: ['PACIENT'] });
  expect(byName.items.map((u) => u.name).sort()).toEqual([
    'Ana Gómez Torres',
    'María Gómez Ruiz',
    'Álvaro Gómez Díaz',
  ]);
  // The phone as the back office shows it finds the digits stored with the country code.
  const byPhone = await accounts.listUsers({
    page: 1,
    limit: 10,
    search: '+34 612 345 678',
    roles: ['PACIENT'],
  });
  expect(byPhone.items).toEqual([
    expect.objectContaining({ id: seeded[0]!.id, phone: '34612345678', email: 'maria.gomez@growth.test' }),
  ]);
  const found = await accounts.findPatientByEmail('MARIA.GOMEZ@growth.test');
  expect(found).toMatchObject({ id: seeded[0]!.id, rol: 'PACIENT', confirmed: true });
  expect(await accounts.findPatientById(seeded[2]!.id)).toMatchObject({ name: 'Lucía Navarro Gil' });
});
