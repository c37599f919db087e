/**
 * Least privilege on the bus: every deployable connects to RabbitMQ as a user of its own, which may
 * publish only the routing keys its contracts name (topic permissions), and every consumer accepts
 * an event only from the publishers its contract names (the `user_id` RabbitMQ validates). So one
 * compromised deployable — the e-mail worker, say — can neither forge a trail entry nor erase a
 * patient:
 *  - the broker refuses what its user may not publish (the channel closes with ACCESS_REFUSED), a
 *    `user_id` not its own (PRECONDITION_FAILED), the default exchange, and binding to others' events;
 *  - an event that reaches a queue without a publisher's `user_id` (a user allowed to publish the key
 *    but stamping none, or the operator's) is dropped by the consumer: the trail and the patient stay
 *    as they were;
 *  - genuine entries and a genuine erasure still go through.
 * The stack's exchange gets the deployables' topic permissions, as `crm.events` does in a deployment.
 */
import amqp from 'amqplib';
import { auditEntryRecorded, userErased, type BusParticipant } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { eventually } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import type { AppointmentsService } from '../services/appointments/src/app';
import type { AuditApp } from '../services/audit/src/app';
import { signInStaff, signUpPatient, type Actor } from './support/actors';
import { Summary } from './support/summary';
import { startSystemStack, type SystemStack } from './support/system-stack';

jest.setTimeout(120_000);

const summary = new Summary('forged events are refused');
let stack: SystemStack;
let admin: Actor;
let doctor: Actor;
let patient: Actor;
let appointmentId: string;
const slots = slotAllocator(4);
const FORGER_NAME = 'Falsificador Ficticio';

beforeAll(async () => {
  stack = await startSystemStack({ restrictTopics: true });
  [admin, doctor] = await Promise.all([signInStaff(stack, 'admin'), signInStaff(stack, 'doctor')]);
  patient = await signUpPatient(stack, 'forged');
  const booked = await stack.api.post(
    '/dates/admin',
    { date: slots.next(), pacientId: patient.id },
    admin.token,
  );
  expect(booked.status).toBe(201);
  appointmentId = booked.body.id;
}, 120_000);

afterAll(async () => {
  summary.print();
  await stack?.stop();
});

interface Attempt {
  /** Confirmed by the broker, or refused (the channel closed with `code`). */
  confirmed: boolean;
  code?: number;
  message?: string;
}

/** Publishes one message as `url`'s user and reports whether the broker took it. */
async function publishAs(
  url: string,
  exchange: string,
  routingKey: string,
  body: unknown,
  properties: amqp.Options.Publish = {},
): Promise<Attempt> {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  let closedWith: { code?: number; message: string } | undefined;
  try {
    const channel = await connection.createConfirmChannel();
    channel.on(
      'error',
      (err: Error & { code?: number }) => (closedWith = { code: err.code, message: err.message }),
    );
    const confirmed = await new Promise<boolean>((resolve) => {
      channel.on('close', () => resolve(false));
      try {
        channel.publish(
          exchange,
          routingKey,
          Buffer.from(JSON.stringify(body)),
          { persistent: true, ...properties },
          (err) => resolve(!err),
        );
      } catch {
        resolve(false);
      }
    });
    // A refusal arrives as the channel's closing error, right after the publish.
    if (confirmed) await new Promise((resolve) => setTimeout(resolve, 200));
    return { confirmed: confirmed && !closedWith, ...closedWith };
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Runs one AMQP operation as `url`'s user: resolves with the error that closed the channel, if any. */
async function tryAs(url: string, work: (channel: amqp.Channel) => Promise<unknown>) {
  const connection = await amqp.connect(url);
  connection.on('error', () => undefined);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    await work(channel);
    return undefined;
  } catch (err) {
    return err as Error & { code?: number };
  } finally {
    await connection.close().catch(() => undefined);
  }
}

const forgedEntry = (label: string) =>
  createEnvelope(
    auditEntryRecorded,
    {
      at: new Date().toISOString(),
      actorId: `forger-${label}`,
      actorName: FORGER_NAME,
      actorRol: 'ADMIN',
      action: 'record.read',
      resource: 'record',
      patientIds: [patient.id],
    },
    `forged-${label}`,
  );
const forgedErasure = (label: string) =>
  createEnvelope(userErased, { userId: patient.id, erasedAt: new Date().toISOString() }, `forged-${label}`);

/** The services that logged dropping the event `eventId` (the refusal's log line). */
function refusedBy(eventId: string): string[] {
  const services = new Set<string>();
  for (const line of stack.logs) {
    if (!line.includes(eventId) || !line.includes('message refused')) continue;
    const entry = JSON.parse(line) as { service?: string; eventId?: string };
    if (entry.eventId === eventId && entry.service) services.add(entry.service);
  }
  return [...services].sort();
}

const waitForRefusal = (eventId: string, services: string[]) =>
  eventually(
    async () => (refusedBy(eventId).length >= services.length ? true : undefined),
    20_000,
    `the refusal of ${eventId} by ${services.join(', ')}`,
  );

const trailRowsOfForgers = async () =>
  (stack.services.audit.handle as AuditApp).models.Entry.countDocuments({ actorId: /^forger-/ });

const keptUnderTheirName = () => ({ _id: appointmentId, pacientId: patient.id, 'user.name': 'Lucía Pérez' });

/** The patient's appointment still booked under their name: nothing erased it. */
async function expectPatientUntouched(): Promise<void> {
  const appointments = stack.services.appointments.handle as AppointmentsService;
  expect(await appointments.models.Appointment.countDocuments(keptUnderTheirName())).toBe(1);
  expect((await stack.api.get(`/dates/id/${appointmentId}`, admin.token)).body.status).toBe('booked');
  expect((await stack.api.get('/auth/currentUser', patient.token)).status).toBe(200);
}

describe('with the e-mail worker’s broker credentials', () => {
  const notifications = () => stack.busUrl('notifications');

  it('the broker refuses a forged trail entry and a forged erasure: ACCESS_REFUSED on their routing keys', async () => {
    const check = summary.case();
    for (const envelope of [forgedEntry('topic'), forgedErasure('topic')]) {
      const attempt = await publishAs(notifications(), stack.exchange, envelope.name, envelope, {
        userId: 'notifications',
      });
      expect(attempt).toMatchObject({ confirmed: false, code: 403 });
      expect(attempt.message).toContain(`ACCESS_REFUSED - access to topic '${envelope.name}'`);
      expect(attempt.message).toContain("refused for user 'notifications'");
      summary.add('forged publishes refused by the broker');
    }
    // What it may publish, it still can: the refusal is about the routing key, not the user.
    const own = await publishAs(
      notifications(),
      stack.exchange,
      'notifications.reminder.due.v1',
      {},
      {
        userId: 'notifications',
      },
    );
    expect(own.confirmed).toBe(true);
    check.pass();
  });

  it('cannot claim to be auth, drop a message into the audit queue by name, or bind a queue to the trail entries', async () => {
    const check = summary.case();
    const asAuth = await publishAs(
      notifications(),
      stack.exchange,
      'notifications.reminder.due.v1',
      {},
      {
        userId: 'auth',
      },
    );
    expect(asAuth).toMatchObject({ confirmed: false, code: 406 });
    expect(asAuth.message).toContain(
      "user_id property set to 'auth' but authenticated user was 'notifications'",
    );

    const entry = forgedEntry('default-exchange');
    const direct = await publishAs(notifications(), '', `${stack.env.QUEUE_PREFIX}.audit.entries`, entry, {
      userId: 'notifications',
    });
    expect(direct).toMatchObject({ confirmed: false, code: 403 });
    expect(direct.message).toContain("access to exchange 'amq.default'");

    const spy = `${stack.env.QUEUE_PREFIX}.notifications.spy`;
    const bound = await tryAs(notifications(), async (channel) => {
      await channel.assertQueue(spy, { exclusive: true });
      await channel.bindQueue(spy, stack.exchange, auditEntryRecorded.name);
    });
    expect(bound?.code).toBe(403);
    expect(bound?.message).toContain(`access to topic '${auditEntryRecorded.name}'`);
    const othersQueue = await tryAs(notifications(), (channel) =>
      channel.assertQueue(`${stack.env.QUEUE_PREFIX}.audit.entries`, { durable: true }),
    );
    expect(othersQueue?.code).toBe(403);
    summary.set('default exchange, foreign user_id, foreign binding', 'refused');
    check.pass();
  });

  it('changed nothing: no trail row of the forger, the patient still booked under their name', async () => {
    const check = summary.case();
    expect(await trailRowsOfForgers()).toBe(0);
    await expectPatientUntouched();
    check.pass();
  });
});

describe('an event the broker lets through without a publisher’s identity', () => {
  /** A user allowed to publish the key but stamping no user_id, and the operator's user (guest). */
  const senders = (publisher: BusParticipant) => [
    { label: `${publisher} without user_id`, url: stack.busUrl(publisher), properties: {} },
    { label: 'the operator', url: stack.amqpUrl, properties: { userId: new URL(stack.amqpUrl).username } },
  ];

  it('is dropped by the audit service: the trail stays unchanged', async () => {
    const check = summary.case();
    for (const [n, sender] of senders('records').entries()) {
      const entry = forgedEntry(`unsigned-${n}`);
      const attempt = await publishAs(sender.url, stack.exchange, entry.name, entry, sender.properties);
      expect(attempt.confirmed).toBe(true); // the broker took it: the consumer must refuse it
      await waitForRefusal(entry.id, ['audit']);
      expect(refusedBy(entry.id)).toEqual(['audit']);
      summary.add('unsigned trail entries dropped by the audit service');
    }
    expect(await trailRowsOfForgers()).toBe(0);
    check.pass();
  });

  it('is dropped by every consumer of erasures: the patient is not erased anywhere', async () => {
    const check = summary.case();
    for (const [n, sender] of senders('auth').entries()) {
      const erasure = forgedErasure(`unsigned-${n}`);
      const attempt = await publishAs(sender.url, stack.exchange, erasure.name, erasure, sender.properties);
      expect(attempt.confirmed).toBe(true);
      await waitForRefusal(erasure.id, userErased.consumers as string[]);
      expect(refusedBy(erasure.id)).toEqual([...userErased.consumers].sort());
      summary.add('unsigned erasures dropped (per consumer)', userErased.consumers.length);
    }
    await expectPatientUntouched();
    check.pass();
  });

  it('logs the refusal with names and ids only, never the forged content', () => {
    const check = summary.case();
    const refusals = stack.logs.filter((line) => line.includes('message refused'));
    expect(refusals.length).toBeGreaterThanOrEqual(2 + 2 * userErased.consumers.length);
    for (const line of refusals) expect(line).not.toContain(FORGER_NAME);
    expect(stack.logs.some((line) => line.includes(FORGER_NAME))).toBe(false);
    check.pass();
  });
});

describe('genuine events', () => {
  it('still flow: a doctor’s read reaches the trail, and the patient’s own erasure reaches every service', async () => {
    const check = summary.case();
    expect((await stack.api.get(`/dates/id/${appointmentId}`, doctor.token)).status).toBe(200);
    const rows = await eventually(async () => {
      const answer = await stack.api.get(
        `/audit?patientId=${patient.id}&actorId=${doctor.id}&action=appointment.read`,
        admin.token,
      );
      return answer.body.total >= 1 ? answer.body : undefined;
    }, 20_000);
    expect(rows.entries[0]).toMatchObject({ actorId: doctor.id, patientId: patient.id });

    const erased = await stack.api.delete('/users/me', patient.token, { password: patient.password });
    expect(erased.status).toBe(200);
    // Appointments cancels the booking and keeps no name: the genuine erasure went through.
    const appointments = stack.services.appointments.handle as AppointmentsService;
    await eventually(
      async () =>
        (await stack.api.get(`/dates/id/${appointmentId}`, admin.token)).body.status === 'cancelled'
          ? true
          : undefined,
      20_000,
      'the appointment cancelled by the erasure',
    );
    expect(
      await appointments.models.Appointment.countDocuments({
        pacientId: patient.id,
        'user.name': 'Lucía Pérez',
      }),
    ).toBe(0);
    expect(refusedBy(appointmentId)).toEqual([]);
    expect(await trailRowsOfForgers()).toBe(0);
    summary.set('genuine trail entry and erasure', 'delivered');
    check.pass();
  });
});
