/**
 * The access trail loses nothing when the broker or the audit service is away: a
 * producer keeps recording — each entry is one local insert into its own `audit_outbox` — and once
 * RabbitMQ (stopped with `rabbitmqctl stop_app`) or the audit service (stopped like a deployment
 * stops it) is back, every entry is in the trail exactly once. Fault tests stop shared
 * infrastructure: `npm test` runs them alone, and RabbitMQ is always started again (finally/afterAll).
 */
import mongoose from 'mongoose';
import { createLogger } from '@crm/server-kit';
import {
  deleteQueues,
  eventually,
  infrastructure,
  prepareBus,
  TEST_VERIFIER_ENV,
  uniqueId,
  uniqueName,
} from '@crm/testing';
import { ensureBrokerRunning, rabbitmqctl } from '../../../test-support/faults';
import { createAuditService, type AuditApp } from '../src/app';
import { loadAuditConfig } from '../src/config';
import { startProducer, type Producer } from '../../../test-support/audit-producer';

jest.setTimeout(240_000);

const ENTRIES = 25;
const PATIENTS_PER_ENTRY = 2;
const id = uniqueName('auditfault');
let env: NodeJS.ProcessEnv;
let adminAmqpUrl: string;
let audit: AuditApp;
let producer: Producer;
const figures: Record<string, string | number> = {};

async function startAudit(): Promise<AuditApp> {
  const service = createAuditService(
    loadAuditConfig(env),
    createLogger('audit', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent'),
  );
  await service.start();
  await service.consuming(60_000);
  return service;
}

/** Records ENTRIES entries by one actor, one call each (as requests would), timing the slowest. */
async function recordEntries(actorId: string): Promise<number> {
  let slowest = 0;
  for (let i = 0; i < ENTRIES; i++) {
    const started = Date.now();
    await producer.trail.record({
      actorId,
      actorRol: 'DOCTOR',
      actorName: 'Dra. Núñez',
      action: 'record.read',
      resource: 'record',
      resourceId: uniqueId(),
      patientIds: Array.from({ length: PATIENTS_PER_ENTRY }, uniqueId),
    });
    slowest = Math.max(slowest, Date.now() - started);
  }
  return slowest;
}

/** Waits until the actor's rows are all stored, then checks a while longer that no copy arrives. */
async function expectStoredExactlyOnce(actorId: string): Promise<void> {
  const expected = ENTRIES * PATIENTS_PER_ENTRY;
  await eventually(
    async () => ((await audit.models.Entry.countDocuments({ actorId })) >= expected ? true : undefined),
    120_000,
    `${expected} rows of ${actorId}`,
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(await audit.models.Entry.countDocuments({ actorId })).toBe(expected);
  expect((await audit.models.Entry.distinct('eventId', { actorId })).length).toBe(ENTRIES);
}

beforeAll(async () => {
  const infra = await infrastructure();
  env = {
    ...process.env,
    NODE_ENV: 'test',
    ...TEST_VERIFIER_ENV,
    MONGO_URL: infra.mongoUrl,
    // Each on its own broker user, as deployed; the exchange and the entries queue are the broker
    // definitions' (prepareBus), declared by the operator's user.
    AMQP_URL: infra.busUrls.audit,
    EVENTS_EXCHANGE: `${id}.events`,
    QUEUE_PREFIX: id,
    MONGO_DB: `${id}_audit`,
  };
  adminAmqpUrl = infra.amqpUrl;
  await prepareBus(adminAmqpUrl, { exchange: env.EVENTS_EXCHANGE!, queuePrefix: id });
  audit = await startAudit();
  producer = await startProducer({
    mongoUrl: infra.mongoUrl,
    amqpUrl: infra.busUrls.records,
    exchange: env.EVENTS_EXCHANGE!,
  });
}, 120_000);

afterAll(async () => {
  await ensureBrokerRunning().catch(() => undefined);
  process.stdout.write(`audit outage figures: ${JSON.stringify(figures)}\n`);
  await producer?.stop();
  await audit?.stop();
  const connection = await mongoose.createConnection(env.MONGO_URL!).asPromise();
  await connection
    .useDb(env.MONGO_DB!)
    .dropDatabase()
    .catch(() => undefined);
  await connection.close();
  await deleteQueues(adminAmqpUrl, [`${id}.audit.entries`, `${id}.audit.staff`], [env.EVENTS_EXCHANGE!]);
});

it('keeps recording while RabbitMQ is stopped, and every entry reaches the trail exactly once when it is back', async () => {
  const actorId = uniqueId();
  await rabbitmqctl('stop_app');
  const down = Date.now();
  try {
    figures['slowest record, broker down (ms)'] = await recordEntries(actorId);
    // Nothing could be published: every entry waits in the producer's own database.
    expect(await producer.pending()).toBe(ENTRIES);
    expect(await audit.models.Entry.countDocuments({ actorId })).toBe(0);
  } finally {
    await rabbitmqctl('start_app');
    figures['broker down (ms)'] = Date.now() - down;
  }
  const up = Date.now();
  await expectStoredExactlyOnce(actorId);
  figures['all stored after broker start (ms)'] = Date.now() - up;
  expect(await producer.pending()).toBe(0);
  await producer.trail.sweep();
  expect(await producer.outboxSize()).toBe(0);
});

it('keeps entries while the audit service is stopped, and stores them all once when it starts again', async () => {
  const actorId = uniqueId();
  await audit.stop();
  figures['slowest record, audit service down (ms)'] = await recordEntries(actorId);
  // Published to the audit service's durable queue, which holds them while nobody consumes.
  await eventually(async () => ((await producer.pending()) === 0 ? true : undefined), 60_000, 'relay');
  const restarted = Date.now();
  audit = await startAudit();
  await expectStoredExactlyOnce(actorId);
  figures['all stored after audit start (ms)'] = Date.now() - restarted;
});
