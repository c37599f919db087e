import { auditEntryRecorded, userUpdated } from '@crm/contracts';
import { createEnvelope, EventValidationError } from '@crm/event-bus';
import { createHttpApp, createLogger, requireAuth } from '@crm/server-kit';
import { AUDIT_OUTBOX_COLLECTION, createAuditTrail } from '@crm/server-kit/service';
import {
  eventually,
  listen,
  mintToken,
  publishEnvelopes,
  testTokens,
  uniqueId,
  uniqueName,
} from '@crm/testing';
import mongoose from 'mongoose';
import { startStack, type Stack } from '../../../test-support/stack';
import type { AuditApp } from '../src/app';
import { startProducer, type Producer } from '../../../test-support/audit-producer';

/**
 * The producer side (server-kit's audit trail in a throwaway service with its own database and
 * relay) through the real broker into the audit service, and what the audit service does with
 * what arrives: stored once per event, names filled in, never changed or deleted.
 */
let stack: Stack;
let producer: Producer;
let audit: AuditApp;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'audit'] });
  audit = stack.components.audit!.handle as AuditApp;
  producer = await startProducer({
    mongoUrl: stack.mongoUrl,
    // A service that records accesses: the audit service accepts entries only from those.
    amqpUrl: stack.busUrl('records'),
    exchange: stack.exchange,
  });
}, 60_000);

afterAll(async () => {
  await producer?.stop();
  await stack?.stop();
});

const rowsOf = (filter: Record<string, unknown>) => audit.models.Entry.find(filter).sort({ row: 1 }).lean();
const waitForRows = (filter: Record<string, unknown>, count: number, timeoutMs = 15_000) =>
  eventually(
    async () => {
      const rows = await rowsOf(filter);
      return rows.length >= count ? rows : undefined;
    },
    timeoutMs,
    `${count} audit rows for ${JSON.stringify(filter)}`,
  );

describe('recording through a service’s own audit_outbox', () => {
  it('delivers an entry recorded by another service to the trail, one row per patient, and then forgets it', async () => {
    const actorId = uniqueId();
    const patients = [uniqueId(), uniqueId(), uniqueId()];
    await producer.trail.record({
      actorId,
      actorRol: 'DOCTOR',
      actorName: 'Dra. Núñez',
      action: 'appointment.list',
      resource: 'appointment',
      patientIds: [...patients, patients[0]!],
      requestId: 'req-list-1',
      clientAddress: '203.0.113.9',
    });
    const rows = await waitForRows({ actorId }, 3);
    expect(rows.map((row) => row.patientId)).toEqual(patients);
    expect(rows[0]).toMatchObject({
      actorName: 'Dra. Núñez',
      actorRol: 'DOCTOR',
      action: 'appointment.list',
      resource: 'appointment',
      requestId: 'req-list-1',
      clientAddress: '203.0.113.9',
    });
    // One event for the three rows.
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(1);
    // Published, then swept: the producer keeps nothing about who saw whom.
    await eventually(async () => ((await producer.pending()) === 0 ? true : undefined), 10_000, 'relay');
    await producer.trail.sweep();
    expect(await producer.outboxSize()).toBe(0);
  });

  it('splits a list naming more than 100 patients into entries of at most 100, all stored', async () => {
    const actorId = uniqueId();
    const patients = Array.from({ length: 230 }, uniqueId);
    await producer.trail.record({
      actorId,
      actorRol: 'ADMIN',
      action: 'user.list',
      resource: 'user',
      patientIds: patients,
    });
    const rows = await waitForRows({ actorId }, 230, 30_000);
    expect(new Set(rows.map((row) => row.patientId))).toEqual(new Set(patients));
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(3);
  });

  it('refuses free text and malformed fields before anything is stored', async () => {
    const before = await producer.outboxSize();
    const valid = {
      actorId: uniqueId(),
      actorRol: 'DOCTOR' as const,
      action: 'record.read',
      resource: 'record',
    };
    for (const bad of [
      { ...valid, action: 'leyó la historia de Juan Pérez' },
      { ...valid, resource: 'Historia clínica' },
      { ...valid, resourceId: 'texto con espacios' },
      { ...valid, actorName: 'x'.repeat(500) },
      { ...valid, actorName: 'Ana\nADMIN' },
      { ...valid, patientIds: ['no es un id'] },
      { ...valid, clientAddress: 'not-an-ip' },
      { ...valid, requestId: 'a b' },
    ]) {
      await expect(producer.trail.record(bad)).rejects.toBeInstanceOf(EventValidationError);
    }
    // A valid one together with a bad one: neither is stored.
    await expect(producer.trail.record(valid, { ...valid, action: 'X' })).rejects.toBeInstanceOf(
      EventValidationError,
    );
    expect(await producer.outboxSize()).toBe(before);
  });

  it('never carries a body: unknown fields are stripped from the event', async () => {
    const actorId = uniqueId();
    await producer.trail.record({
      actorId,
      actorRol: 'DOCTOR',
      action: 'record.update',
      resource: 'record',
      resourceId: uniqueId(),
      ...({ metadata: { diagnosis: 'texto clínico' }, body: 'secreto' } as object),
    });
    const [row] = await waitForRows({ actorId }, 1);
    expect(JSON.stringify(row)).not.toMatch(/texto clínico|secreto|metadata/);
  });
});

describe('the audit service stores each entry exactly once', () => {
  it('stores a redelivered (or twice-published) event once', async () => {
    const actorId = uniqueId();
    const envelope = createEnvelope(
      auditEntryRecorded,
      {
        at: new Date().toISOString(),
        actorId,
        actorRol: 'ADMIN',
        action: 'user.read',
        resource: 'user',
        patientIds: [uniqueId(), uniqueId()],
      },
      'test',
    );
    await publishEnvelopes(stack.busUrl, stack.exchange, [envelope, envelope]);
    await waitForRows({ actorId }, 2);
    await publishEnvelopes(stack.busUrl, stack.exchange, [envelope]);
    const marker = uniqueId();
    await publishEnvelopes(stack.busUrl, stack.exchange, [
      createEnvelope(
        auditEntryRecorded,
        {
          at: new Date().toISOString(),
          actorId: marker,
          actorRol: 'ADMIN',
          action: 'user.read',
          resource: 'user',
          patientIds: [],
        },
        'test',
      ),
    ]);
    // Published after the copies: once it is stored, the copies have been delivered too.
    await waitForRows({ actorId: marker }, 1);
    expect(await rowsOf({ actorId })).toHaveLength(2);
    expect(await audit.models.Entry.countDocuments({ eventId: envelope.id })).toBe(2);
  });

  it('fills a missing actor name from the staff directory (fed by the auth service’s events)', async () => {
    const staffId = uniqueId();
    await publishEnvelopes(stack.busUrl, stack.exchange, [
      createEnvelope(
        userUpdated,
        { id: staffId, name: 'Dr. Álvaro Peña', email: `${uniqueName('dr')}@example.test`, rol: 'DOCTOR' },
        'test',
      ),
    ]);
    await eventually(
      async () => ((await audit.models.Staff.countDocuments({ _id: staffId })) === 1 ? true : undefined),
      10_000,
      'staff directory',
    );
    await producer.trail.record({
      actorId: staffId,
      actorRol: 'DOCTOR',
      action: 'record.read',
      resource: 'record',
    });
    const [row] = await waitForRows({ actorId: staffId }, 1);
    expect(row).toMatchObject({ actorName: 'Dr. Álvaro Peña', nameKey: 'dr. alvaro pena' });
  });

  it('has no way to change or delete a stored row', async () => {
    const { Entry } = audit.models;
    const any = { actorId: { $exists: true } };
    await expect(Entry.deleteMany(any)).rejects.toThrow(/append-only/);
    await expect(Entry.deleteOne(any)).rejects.toThrow(/append-only/);
    await expect(Entry.updateOne(any, { $set: { actorName: 'otro' } })).rejects.toThrow(/append-only/);
    await expect(Entry.updateMany(any, { $set: { actorName: 'otro' } })).rejects.toThrow(/append-only/);
    await expect(Entry.findOneAndUpdate(any, { $set: { action: 'x.y' } })).rejects.toThrow(/append-only/);
    await expect(Entry.findOneAndDelete(any)).rejects.toThrow(/append-only/);
    await expect(Entry.replaceOne(any, {})).rejects.toThrow(/append-only/);
    await expect(Entry.bulkWrite([{ deleteMany: { filter: {} } }])).rejects.toThrow(/append-only/);
    const stored = await Entry.findOne(any);
    stored!.set('actorName', 'otro');
    await expect(stored!.save()).rejects.toThrow(/append-only/);
  });
});

describe('an entry from an Express request', () => {
  let connection: mongoose.Connection;
  afterAll(async () => {
    await connection?.dropDatabase().catch(() => undefined);
    await connection?.close();
  });

  it('takes the actor from the token, the request id from X-Request-Id and the address the gateway forwarded', async () => {
    connection = await mongoose
      .createConnection(stack.mongoUrl, { dbName: uniqueName('audit_request') })
      .asPromise();
    const trail = createAuditTrail(connection);
    const tokens = testTokens();
    const app = createHttpApp({
      logger: createLogger('test', 'silent'),
      readiness: [],
      routes: (router) =>
        router.get('/records/:id', requireAuth(tokens), async (req, res) => {
          await trail.recordRequest(req, {
            action: 'record.read',
            resource: 'record',
            resourceId: String(req.params.id),
            patientIds: ['0123456789abcdef01234567'],
          });
          res.json({ ok: true });
        }),
    });
    const server = await listen(app);
    try {
      const doctorId = uniqueId();
      const recordId = uniqueId();
      const started = Date.now();
      const response = await fetch(`${server.url}/records/${recordId}`, {
        headers: {
          authorization: `Bearer ${mintToken({ id: doctorId, rol: 'DOCTOR' })}`,
          'x-request-id': 'gw-req-42',
          'x-client-request-id': 'client-req-7',
          // What the gateway sends when it saw the client at 198.51.100.23.
          'x-forwarded-for': '198.51.100.23',
        },
      });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      const [document] = await connection.collection(AUDIT_OUTBOX_COLLECTION).find().toArray();
      expect(document!.outbox).toHaveLength(1);
      expect(document!.outbox[0]).toMatchObject({
        name: 'audit.entry.recorded.v1',
        correlationId: 'gw-req-42',
        data: {
          actorId: doctorId,
          actorRol: 'DOCTOR',
          action: 'record.read',
          resource: 'record',
          resourceId: recordId,
          patientIds: ['0123456789abcdef01234567'],
          requestId: 'gw-req-42',
          clientRequestId: 'client-req-7',
          clientAddress: '198.51.100.23',
        },
      });
    } finally {
      await server.close();
    }
  });
});
