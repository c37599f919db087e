import mongoose, { type Connection } from 'mongoose';
import { syncIndexes } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { MARK_KEEP_MS, MARK_SETTLE_MS, PatientList, RELOAD_AFTER_MS } from '../src/data/patient-list';
import { userModels, type UserModels } from '../src/data/user.model';
import { ERASED_ADDRESS, MongoUserRepository } from '../src/data/user.repository';
import { seedPatientAccounts } from '../src/data/user.seed-bulk';
import type { NewUser, User } from '../src/domain/user';

/**
 * The patient list's order in memory (`patient-list.ts`) pages exactly as the sorted read of the
 * database does, on two replicas, after creations, renames, erasures and a bulk load; and a replica
 * that missed a change (an unmarked write, a mark read before its write) catches up.
 */
let connection: Connection;
let models: UserModels;
/** Two replicas of the service on one database. */
let replicaA: MongoUserRepository;
let replicaB: MongoUserRepository;

const patient = (name: string): NewUser => ({
  name,
  email: `${uniqueId()}@patient-list.test`,
  rol: 'PACIENT',
  confirmed: true,
});

/** The reference: every listed patient, sorted by the database (name, then `_id`). */
async function sortedRead(): Promise<string[]> {
  const docs = await models.User.find({ rol: 'PACIENT', email: { $not: ERASED_ADDRESS } })
    .sort({ name: 1, _id: 1 })
    .select({ _id: 1 })
    .lean();
  return docs.map((doc) => String(doc._id));
}

async function everyPage(replica: MongoUserRepository, limit: number) {
  const ids: string[] = [];
  const totals = new Set<number>();
  for (let page = 1; ; page += 1) {
    const { items, total } = await replica.page({ page, limit, search: '', roles: ['PACIENT'] });
    totals.add(total);
    if (items.length === 0) break;
    ids.push(...items.map((user: User) => user.id));
  }
  return { ids, totals: [...totals] };
}

async function expectListedAsSorted() {
  const expected = await sortedRead();
  for (const replica of [replicaA, replicaB])
    for (const limit of [3, 7])
      expect(await everyPage(replica, limit)).toEqual({ ids: expected, totals: [expected.length] });
  return expected;
}

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('auth_patient_list') })
    .asPromise();
  models = userModels(connection);
  await syncIndexes(connection);
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

test('both replicas page the list as the sorted read does, after every kind of change', async () => {
  // Empty, as a new centre's replicas start (a retry starts from there too).
  await models.User.deleteMany({});
  await models.PatientListMark.deleteMany({});
  let now = new Date();
  replicaA = new MongoUserRepository(
    models,
    () => undefined,
    () => now,
  );
  replicaB = new MongoUserRepository(
    models,
    () => undefined,
    () => now,
  );
  expect(await everyPage(replicaA, 3)).toEqual({ ids: [], totals: [0] });
  expect(await everyPage(replicaB, 3)).toEqual({ ids: [], totals: [0] });

  const created: User[] = [];
  // Same names (the tie broken by `_id`), accents, lower case, from both replicas.
  for (const [i, name] of [
    'María Gómez',
    'Álvaro Díaz',
    'ana Ruiz',
    'María Gómez',
    'Zoe Pons',
    'Luis Gil',
    'María Gómez',
    'Ángel Mora',
  ].entries())
    created.push(await (i % 2 ? replicaB : replicaA).create(patient(name), () => []));
  await replicaA.create({ ...patient('Beatriz Doctora'), rol: 'DOCTOR' }, () => []);
  let listed = await expectListedAsSorted();
  expect(listed).toHaveLength(8);
  // The creations' marks settle: from now on each replica sees only what is marked anew.
  now = new Date(now.getTime() + MARK_SETTLE_MS);
  await expectListedAsSorted();

  // A rename on B moves the patient on A as well; an erasure on A takes one off B's list.
  await replicaB.update(created[0]!.id, { name: 'Zuriñe Gómez' }, []);
  await replicaA.update(
    created[5]!.id,
    { name: 'Paciente eliminado', email: `${created[5]!.id}@erased.invalid` },
    [],
  );
  listed = await expectListedAsSorted();
  expect(listed).toHaveLength(7);
  // Renamed from "María Gómez" to after "Zoe Pons" (byte order: "Ángel" still comes after both).
  expect(listed.indexOf(created[0]!.id)).toBe(listed.indexOf(created[4]!.id) + 1);
  expect(listed).not.toContain(created[5]!.id);

  // A bulk load writes without marking each account, then marks everyone: both load it again.
  await seedPatientAccounts(
    models,
    ['Carmen Vidal', 'Bruno Sáez', 'María Gómez'].map((name) => ({
      id: uniqueId(),
      name,
      email: `${uniqueId()}@seed.test`,
      passwordHash: 'x',
      createdAt: new Date(),
    })),
  );
  expect(await expectListedAsSorted()).toHaveLength(10);
});

describe('a replica that missed a change (injected clock)', () => {
  let now: Date;
  let list: PatientList;
  const at = (ms: number) => (now = new Date(now.getTime() + ms));
  const listed = async () => (await list.page(1, 100)).ids;

  beforeEach(async () => {
    await models.User.deleteMany({});
    await models.PatientListMark.deleteMany({});
    now = new Date();
    list = new PatientList(models, () => now);
    await list.sync();
  });

  test('a mark read before its write is read again until it settles; a reload sees unmarked writes', async () => {
    const writer = new MongoUserRepository(
      models,
      () => undefined,
      () => now,
    );
    const ana = await writer.create(patient('Ana Sanz'), () => []);
    const berta = await writer.create(patient('Berta Ruiz'), () => []);
    expect(await listed()).toEqual([ana.id, berta.id]);
    // The writer marks, this replica syncs, and only then the write lands.
    await list.marked([ana.id]);
    at(1_000);
    await list.sync();
    await models.User.updateOne({ _id: ana.id }, { $set: { name: 'Carla Zubiri' } });
    at(10_000);
    expect(await listed()).toEqual([berta.id, ana.id]);

    // Settled marks are not read again: a write nobody marked is not seen until the list is reloaded.
    at(MARK_SETTLE_MS);
    await list.sync();
    await models.User.updateOne({ _id: ana.id }, { $set: { name: 'Aarón Sin Marca' } });
    at(10_000);
    expect(await listed()).toEqual([berta.id, ana.id]);
    at(RELOAD_AFTER_MS + 1_000);
    expect(await listed()).toEqual([ana.id, berta.id]);
  });

  test('marks older than an hour are deleted, younger ones kept', async () => {
    await list.marked([uniqueId()]);
    at(MARK_KEEP_MS - 1_000);
    await list.marked([uniqueId()]);
    at(2_000);
    expect(await list.forgetOldMarks()).toBe(1);
    expect(await models.PatientListMark.countDocuments()).toBe(1);
  });
});
