import { Writable } from 'node:stream';
import { createLogger } from '@crm/server-kit';
import { deleteQueues, listen, uniqueName, type RunningServer } from '@crm/testing';
import mongoose from 'mongoose';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import { createRecordsService, type RecordsService } from '../src/app';
import { loadRecordsConfig } from '../src/config';
import { metadataOf, renewalWith } from './factories/metadata';
import { bookFor, registerPatient, staffOf, type Staff } from './factories/people';

const SECRET = 'DIAGNOSTICO-CONFIDENCIAL-7f3a';

let stack: Stack;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
let records: RecordsService;
let server: RunningServer;
const database = uniqueName('records_logs');
const queuePrefix = uniqueName('records_logs');
const lines: string[] = [];

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'appointments', 'config'] });
  staff = await staffOf(stack);
  // A records service of this test's own, logging everything (debug) into `lines`.
  const destination = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  records = createRecordsService(
    loadRecordsConfig({
      ...stack.envFor('records'),
      MONGO_DB: database,
      QUEUE_PREFIX: queuePrefix,
      LOG_LEVEL: 'debug',
    }),
    createLogger('records', 'debug', destination),
  );
  server = await listen(records.app);
  await records.start();
}, 60_000);
afterAll(async () => {
  await server?.close();
  await records?.stop();
  if (records) await deleteQueues(stack.amqpUrl, records.queueNames());
  const connection = await mongoose.createConnection(stack.mongoUrl).asPromise();
  await connection.useDb(database).dropDatabase();
  await connection.close();
  await stack?.stop();
});

const call = (method: string, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${staff.DOCTOR.token}` },
    body: JSON.stringify(body),
  });

it('never writes clinical text to the logs, whether the call succeeds or fails', async () => {
  const patient = await registerPatient(stack, staff.DOCTOR.token, 'Paciente Discreto');
  const appointment = await bookFor(stack, staff.DOCTOR.token, patient, slotAllocator(20).next());
  const refused = await call('POST', '/records', {
    userId: patient.id,
    dateId: appointment.id,
    metadata: renewalWith({ observations: `${SECRET}${'x'.repeat(100)}` }),
  });
  expect(refused.status).toBe(400);
  const created = await call('POST', '/records', {
    userId: patient.id,
    dateId: appointment.id,
    metadata: renewalWith({ observations: SECRET }),
  });
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect(
    (
      await call('PUT', `/records/${id}`, {
        metadata: { restrictions: { value: SECRET }, result: { value: 'Apto con restricciones' } },
      })
    ).status,
  ).toBe(200);
  expect(
    (await call('PUT', `/records/${id}`, { metadata: { unknownField: { value: SECRET } } })).status,
  ).toBe(400);
  expect(
    (await call('POST', '/records', { userId: patient.id, dateId: appointment.id, metadata: metadataOf() }))
      .status,
  ).toBe(409);

  await new Promise((resolve) => setTimeout(resolve, 500)); // the relay's log lines
  expect(lines.length).toBeGreaterThan(5);
  expect(lines.join('\n')).not.toContain(SECRET);
  expect(lines.join('\n')).not.toContain(staff.DOCTOR.token);
});
