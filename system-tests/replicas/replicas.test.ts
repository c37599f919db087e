/**
 * Services are safe as several replicas, against the real infrastructure:
 * TWO appointments processes and TWO e-mail workers (one in-process, one child process) share one
 * broker and one database each. Both appointments replicas start at the same moment on an empty
 * database (parallel index creation), each runs its own outbox relay over the same collection (so an
 * event can be published twice) and the e-mail workers compete on the same queues.
 *
 * Shown: 200 sign-ups and 200 bookings spread over both replicas produce exactly 200 + 200 e-mails,
 * no slot is booked twice, and a slot booked at once through both replicas goes to exactly one patient.
 */
import mongoose from 'mongoose';
import { waitForQueue } from '@crm/testing';
import { startStack, type Stack } from '../../test-support/stack';
import { upcomingSlots } from '../../services/appointments/src/domain/slot-rules';
import { waitForMails } from './support/mailbox';
import { startReplica, type ReplicaProcess } from './support/replica-process';

// Heavy for a 2-core machine (240 argon2 sign-ups, 3 extra Node processes): generous limits.
jest.setTimeout(120_000);

const PATIENTS = 200;
const BATCH = 25;
const CONTESTED_SLOTS = 10;
const CONTENDERS_PER_SLOT = 4; // two through each replica
const SLOT_TAKEN = 'Ese horario ya no está disponible';

let stack: Stack;
let appointmentsDb: string;
const replicas: ReplicaProcess[] = [];
let appointmentReplicas: ReplicaProcess[] = [];
const runId = Math.random().toString(36).slice(2, 10);
const domain = `replicas-${runId}.test`;
const contestDomain = `contest-${runId}.test`;
// Slots months ahead, so nothing else in the file's own database competes for them.
const slots = upcomingSlots(new Date(Date.now() + 60 * 86_400_000));
const nextSlot = () => slots.next().value!.toISOString();

interface Patient {
  email: string;
  token: string;
}

/** Runs `work` for 0..n-1, `BATCH` at a time (a burst of clients, not one giant spike). */
async function inBatches<T>(n: number, work: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < n; start += BATCH) {
    const size = Math.min(BATCH, n - start);
    results.push(...(await Promise.all(Array.from({ length: size }, (_, k) => work(start + k)))));
  }
  return results;
}

async function signUp(label: string, i: number, emailDomain: string): Promise<Patient> {
  const email = `${label}${i}@${emailDomain}`;
  const response = await stack.api.post('/auth/signUp', {
    name: `Paciente Réplica ${i + 1}`,
    phone: `6${String(20_000_000 + i * 7919).padStart(8, '0')}`,
    email,
    password: 'contraseña-de-prueba',
  });
  if (response.status !== 201)
    throw new Error(`sign-up ${email}: ${response.status} ${JSON.stringify(response.body)}`);
  return { email, token: response.body.sessiontoken as string };
}

async function book(replica: ReplicaProcess, patient: Patient, date: string) {
  const response = await fetch(`${replica.url}/dates`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${patient.token}` },
    body: JSON.stringify({ date }),
  });
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

beforeAll(async () => {
  // Auth and the first e-mail worker in-process; the gateway is used for the sign-ups.
  stack = await startStack({ components: ['auth', 'notifications'], env: { LOG_LEVEL: 'warn' } });
  appointmentsDb = `${stack.env.QUEUE_PREFIX}_appointments`;
  // This 2-core machine runs other test files meanwhile: give the patient lookup in auth more time
  // than in production, so an overloaded moment is not mistaken for auth being down (503).
  // Each replica connects to the broker as its service's own user (envFor), as a deployment's would.
  const quiet = (service: 'appointments' | 'notifications') => ({
    ...stack.envFor(service),
    LOG_LEVEL: 'warn',
    AUTH_TIMEOUT_MS: '15000',
  });
  const started = await Promise.all([
    // Both on an empty database at the same moment: their syncIndexes run concurrently.
    startReplica('appointments-1', 'appointments', { ...quiet('appointments'), MONGO_DB: appointmentsDb }),
    startReplica('appointments-2', 'appointments', { ...quiet('appointments'), MONGO_DB: appointmentsDb }),
    startReplica('notifications-2', 'notifications', {
      ...quiet('notifications'),
      MONGO_DB: stack.components.notifications!.databases[0],
    }),
  ]);
  replicas.push(...started);
  appointmentReplicas = started.slice(0, 2);
  const prefix = stack.env.QUEUE_PREFIX!;
  await Promise.all([
    waitForQueue(stack.amqpUrl, `${prefix}.notifications.account-mail`, { consumers: 2, timeoutMs: 20_000 }),
    waitForQueue(stack.amqpUrl, `${prefix}.notifications.appointment-mail`, {
      consumers: 2,
      timeoutMs: 20_000,
    }),
    waitForQueue(stack.amqpUrl, `${prefix}.appointments.patients`, { consumers: 2, timeoutMs: 20_000 }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.stop()));
  await stack?.stop();
  if (appointmentsDb) {
    const connection = await mongoose.createConnection(stack.mongoUrl).asPromise();
    await connection
      .useDb(appointmentsDb)
      .dropDatabase()
      .catch(() => undefined);
    await connection.close();
  }
});

describe('two replicas of appointments and of the e-mail worker', () => {
  it('created every index once although both replicas synced them at the same time', async () => {
    const connection = await mongoose
      .createConnection(stack.mongoUrl, { dbName: appointmentsDb })
      .asPromise();
    try {
      const indexes = await connection.db!.collection('appointments').indexes();
      const unique = indexes.filter((index) => index.unique).map((index) => Object.keys(index.key).join('+'));
      console.log(
        `appointments indexes after two concurrent start-ups: ${indexes.map((i) => i.name).join(', ')}`,
      );
      // The two rules that stop double booking are unique indexes (see services/appointments/README.md).
      expect(unique).toEqual(expect.arrayContaining(['slotKey', 'activePatientKey']));
      expect(new Set(indexes.map((index) => index.name)).size).toBe(indexes.length);
    } finally {
      await connection.close();
    }
  });

  it(`turns ${PATIENTS} sign-ups and ${PATIENTS} bookings into exactly ${PATIENTS} + ${PATIENTS} e-mails`, async () => {
    const t0 = Date.now();
    const patients = await inBatches(PATIENTS, (i) => signUp('p', i, domain));
    const signedUpMs = Date.now() - t0;

    // Both appointments replicas compete on the patients feed; wait until it holds every new patient.
    const db = await mongoose.createConnection(stack.mongoUrl, { dbName: appointmentsDb }).asPromise();
    const emails = patients.map((patient) => patient.email);
    const deadline = Date.now() + 30_000;
    while ((await db.collection('patients').countDocuments({ email: { $in: emails } })) < PATIENTS) {
      if (Date.now() > deadline) break; // the bookings then look patients up in auth instead
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const snapshots = await db.collection('patients').countDocuments({ email: { $in: emails } });
    await db.close();

    const dates = Array.from({ length: PATIENTS }, nextSlot);
    const t1 = Date.now();
    const bookings = await inBatches(PATIENTS, (i) =>
      book(appointmentReplicas[i % 2]!, patients[i]!, dates[i]!),
    );
    const bookedMs = Date.now() - t1;
    expect(bookings.filter((b) => b.status !== 201)).toEqual([]);

    const t2 = Date.now();
    const mails = await waitForMails(stack.mail, domain, 2 * PATIENTS);
    const deliveredMs = Date.now() - t2;
    const confirmations = mails.filter((m) => m.Subject === 'Confirme su cuenta');
    const booked = mails.filter((m) => m.Subject.startsWith('Cita confirmada'));
    const perRecipient = new Map<string, number>();
    for (const mail of mails) {
      const to = mail.To[0]?.Address ?? '?';
      perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
    }

    const connection = await mongoose
      .createConnection(stack.mongoUrl, { dbName: appointmentsDb })
      .asPromise();
    const stored = await connection
      .db!.collection('appointments')
      .find({ kind: 'active', status: 'booked' }, { projection: { date: 1 } })
      .toArray();
    await connection.close();
    const distinctDates = new Set(stored.map((a) => new Date(a.date as Date).toISOString()));

    console.log(
      [
        `replicas: ${PATIENTS} sign-ups in ${signedUpMs} ms, ${PATIENTS} bookings over 2 appointments replicas ` +
          `in ${bookedMs} ms (${bookings.filter((_, i) => i % 2 === 0).length} + ${bookings.filter((_, i) => i % 2 === 1).length})`,
        `replicas: e-mails ${mails.length} (confirmations ${confirmations.length}, booking confirmations ${booked.length}) ` +
          `after ${deliveredMs} ms; recipients ${perRecipient.size}, max per recipient ${Math.max(...perRecipient.values())}`,
        `replicas: patients read model ${snapshots}/${PATIENTS} before booking; appointments stored ${stored.length}, distinct slots ${distinctDates.size}`,
      ].join('\n'),
    );

    expect(confirmations).toHaveLength(PATIENTS);
    expect(booked).toHaveLength(PATIENTS);
    expect(mails).toHaveLength(2 * PATIENTS);
    expect(perRecipient.size).toBe(PATIENTS);
    expect([...perRecipient.values()].every((count) => count === 2)).toBe(true);
    expect(stored).toHaveLength(PATIENTS);
    expect(distinctDates.size).toBe(PATIENTS);
  });

  it('gives a slot booked at once through both replicas to exactly one patient', async () => {
    const contenders = await inBatches(CONTESTED_SLOTS * CONTENDERS_PER_SLOT, (i) =>
      signUp('c', i, contestDomain),
    );
    const outcomes: number[] = [];
    for (let s = 0; s < CONTESTED_SLOTS; s++) {
      const date = nextSlot();
      const group = contenders.slice(s * CONTENDERS_PER_SLOT, (s + 1) * CONTENDERS_PER_SLOT);
      const responses = await Promise.all(
        group.map((patient, k) => book(appointmentReplicas[k % 2]!, patient, date)),
      );
      const winners = responses.filter((r) => r.status === 201);
      const losers = responses.filter((r) => r.status === 409);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(CONTENDERS_PER_SLOT - 1);
      for (const loser of losers) expect(loser.body.message).toBe(SLOT_TAKEN);
      outcomes.push(winners.length);
    }
    console.log(
      `replicas: ${CONTESTED_SLOTS} slots × ${CONTENDERS_PER_SLOT} simultaneous bookings through both replicas → ` +
        `${outcomes.reduce((a, b) => a + b, 0)} winners`,
    );
    // One booking e-mail per winner (and one confirmation per contender), none twice.
    const mails = await waitForMails(stack.mail, contestDomain, contenders.length + CONTESTED_SLOTS);
    expect(mails.filter((m) => m.Subject.startsWith('Cita confirmada'))).toHaveLength(CONTESTED_SLOTS);
    expect(mails).toHaveLength(contenders.length + CONTESTED_SLOTS);
    expect((await stack.mail.messagesTo(`@${domain}`)).length).toBe(2 * PATIENTS); // nothing late either
  });
});
