import mongoose, { type Connection } from 'mongoose';
import { createRecordBody, RECORDS_VIEW, updateRecordBody, type ViewField } from '@crm/contracts';
import { OUTBOX_FIELDS } from '@crm/event-bus';
import { createLogger } from '@crm/server-kit';
import { syncIndexes } from '@crm/server-kit/service';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { recordModels, revisionId, type RecordModels } from '../src/data/record.models';
import { MongoRecordRepository } from '../src/data/record.repository';
import { seedRecords, type SeedRecord } from '../src/data/record.seed-bulk';
import type { Caller } from '../src/domain/record';
import { RecordService } from '../src/domain/record.service';
import { metadataOf } from './factories/metadata';

/**
 * The bulk seed module (bench/growth) stores each record's revisions and its listing entry as
 * creating and updating a record do, and the records' reads find them.
 */
let connection: Connection;
let models: RecordModels;
let records: RecordService;
const doctor = { id: uniqueId(), name: 'Dra. Begoña Ramos' };
const caller: Caller = { id: doctor.id, rol: 'DOCTOR', bearerToken: 'not-asked' };
/** The form: text fields, as the growth data set fills them. */
const fields: ViewField[] = ['certificateType', 'weight', 'result'].map((name) => ({
  name,
  label: name,
  fieldType: 'TEXT',
  required: false,
  visible: true,
}));
/** A stored text entry, as the growth data set writes it (`field` in bench/growth/dataset.ts). */
const entry = (name: string, value: string) => ({ name, label: name, type: 'TEXT' as const, value });
const appointmentDate = new Date('2025-05-06T09:15:00Z');

const seeded = (revision: number, name: string): SeedRecord => {
  const id = uniqueId();
  return {
    id,
    userId: uniqueId(),
    dateId: id,
    doctor,
    user: { name },
    date: { date: appointmentDate },
    metadata: {
      certificateType: entry('certificateType', 'Permiso de conducir'),
      weight: entry('weight', '71'),
      result: entry('result', 'Apto'),
    },
    configVersion: 3,
    view: RECORDS_VIEW,
    revision,
    updatedBy: { id: doctor.id },
    createdAt: new Date('2025-05-06T09:35:00Z'),
    updatedAt: new Date('2025-05-06T09:40:00Z'),
  };
};
const once = seeded(1, 'Óscar Gómez Serrano');
const twice = seeded(2, 'Nerea Blanco Gil');
const written = { id: uniqueId(), userId: uniqueId() };

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('records_seed') }).asPromise();
  models = recordModels(connection);
  await syncIndexes(connection);
  // The other services, as the records service asks them: the appointment, the doctor's name, the form.
  records = new RecordService(
    new MongoRecordRepository(models, createLogger('records-seed', 'silent')),
    {
      find: async (dateId) => ({
        id: dateId,
        date: appointmentDate,
        status: 'checkedIn',
        patientId: written.userId,
        patientName: 'Paula Suárez Ramírez',
      }),
    },
    { nameOf: async () => doctor.name },
    { current: async () => ({ view: RECORDS_VIEW, version: 3, fields }) },
  );
  expect(await seedRecords(models, [once, twice])).toEqual({ revisions: 3, listed: 2 });
  // The service's own path: a record created, then saved again (revision 2).
  const created = createRecordBody.parse({
    userId: written.userId,
    dateId: written.id,
    metadata: metadataOf({ certificateType: 'Permiso de conducir', weight: '78', result: 'Apto' }),
  });
  await records.create(caller, created);
  const changed = updateRecordBody.parse({ metadata: metadataOf({ weight: '76' }) });
  await records.update(caller, written.id, changed.metadata);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const shapeOf = async (collection: mongoose.Collection, id: string) =>
  // A save's event is still in its revision's outbox; a seeded revision's was published.
  documentShape((await collection.findOne({ _id: id as never }))!, OUTBOX_FIELDS);

it('stores revisions and listing entries of the same shape as creating and updating a record', async () => {
  const { Revision, Listing } = models;
  const revision = await shapeOf(Revision.collection, revisionId(written.id, 1));
  expect(revision).toContain('metadata.weight.value');
  expect(await shapeOf(Revision.collection, revisionId(written.id, 2))).toEqual(revision);
  for (const id of [revisionId(once.id, 1), revisionId(twice.id, 1), revisionId(twice.id, 2)])
    expect(await shapeOf(Revision.collection, id)).toEqual(revision);
  const listed = await shapeOf(Listing.collection, written.id);
  expect(listed).toEqual(expect.arrayContaining(['userKey', 'doctorKey', 'revision']));
  for (const { id } of [once, twice]) expect(await shapeOf(Listing.collection, id)).toEqual(listed);
});

it('is found by the records’ reads: the list and its search (folded names), one record, a patient’s', async () => {
  const all = await records.list({ page: 1, limit: 10, search: '' });
  expect(all.items.map((r) => r.id).sort()).toEqual([once.id, twice.id, written.id].sort());
  const byPatient = await records.list({ page: 1, limit: 10, search: 'gomez' });
  expect(byPatient.items).toEqual([
    expect.objectContaining({ id: once.id, user: { name: 'Óscar Gómez Serrano' } }),
  ]);
  const byDoctor = await records.list({ page: 1, limit: 10, search: 'begoña ramos' });
  expect(byDoctor.total).toBe(3);

  expect(await records.get(twice.id)).toEqual({ ...twice });
  expect(await records.mine(once.userId)).toEqual([once]);
});
