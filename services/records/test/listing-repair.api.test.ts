/**
 * The records list is derived from the revisions. A save writes the revision (with its event) and
 * then the listing; when the second write is lost — the process killed in between, or the database
 * gone for that one call — the record must still reach the list: its own event repairs it.
 */
import { Writable } from 'node:stream';
import { RECORDS_VIEW, recordCreated, type RecordsPage } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { createLogger } from '@crm/server-kit';
import { eventually } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { RecordsService } from '../src/app';
import type { RecordModels } from '../src/data/record.models';
import { MongoRecordRepository } from '../src/data/record.repository';
import type { ClinicalRecord } from '../src/domain/record';
import { bookFor, registerPatient, staffOf, type Staff } from './factories/people';

let stack: Stack;
let service: RecordsService;
let doctor: Staff;
const slots = slotAllocator(11);

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'appointments', 'config', 'records'] });
  service = stack.components.records!.handle as RecordsService;
  doctor = (await staffOf(stack)).DOCTOR;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** The service's models, except that every write to the listing fails like a lost connection. */
function modelsLosingListingWrites(): RecordModels {
  const lost = () => Promise.reject(new Error('connection closed'));
  const Listing = new Proxy(service.models.Listing, {
    get: (target, key, receiver) =>
      key === 'updateOne' || key === 'create' ? lost : Reflect.get(target, key, receiver),
  });
  return { ...service.models, Listing };
}

it('lists a record whose listing write was lost, once its own event comes back', async () => {
  const name = 'Ramón Interrumpido Sáez';
  const patient = await registerPatient(stack, doctor.token, name);
  const appointment = await bookFor(stack, doctor.token, patient, slots.next());
  const warnings: string[] = [];
  const logger = createLogger(
    'records',
    'warn',
    new Writable({ write: (line, _encoding, done) => done(void warnings.push(String(line))) }),
  );
  const now = new Date();
  const record: ClinicalRecord = {
    id: appointment.id,
    userId: patient.id,
    dateId: appointment.id,
    doctor: { id: doctor.id, name: 'Doctor' },
    user: { name },
    date: { date: new Date(appointment.date) },
    metadata: {},
    configVersion: 1,
    view: RECORDS_VIEW,
    revision: 1,
    updatedBy: { id: doctor.id },
    createdAt: now,
    updatedAt: now,
  };
  const reference = {
    id: record.id,
    userId: patient.id,
    dateId: record.id,
    doctorId: doctor.id,
    configVersion: 1,
  };

  // The production save path: the revision is stored, the listing write fails and is logged.
  const repository = new MongoRecordRepository(modelsLosingListingWrites(), logger, () =>
    service.relay.kick(),
  );
  expect(await repository.save(record, createEnvelope(recordCreated, reference, 'listing-repair'))).toBe(
    true,
  );
  expect(warnings.join('')).toContain('record listing not refreshed');

  // A retry of the create answers 409: the record exists (the client's view after a lost answer).
  const retry = await stack.api.post(
    '/records',
    { userId: patient.id, dateId: appointment.id, metadata: {} },
    doctor.token,
  );
  expect(retry.status).toBe(409);

  const listed = await eventually(
    async () => {
      const page = await stack.api.get<RecordsPage>(
        `/records?search=${encodeURIComponent('interrumpido')}`,
        doctor.token,
      );
      return page.body.total === 1 ? page.body.records[0] : undefined;
    },
    10_000,
    'the record listed after its event',
  );
  expect(listed).toMatchObject({
    id: appointment.id,
    userId: patient.id,
    user: { name },
    doctor: { name: 'Doctor' },
  });
});
