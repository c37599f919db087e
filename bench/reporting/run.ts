/**
 * Reporting benchmark (`npm run bench:reporting`).
 *
 * Starts the real reporting service (services/reporting/src/main.ts) in its own process on its own
 * database, exchange and queues, then:
 *  1. query: seeds one year of history straight through the repository (BENCH_APPOINTMENTS
 *     appointments, 30 000 by default, each booked and most of them ended; BENCH_RECORDS clinical
 *     records, 25 000), recomputes the day totals, and times `GET /reports/summary` for the whole
 *     year (sequential calls after a warm-up). Target: p99 ≤ 300 ms.
 *  2. catch-up: publishes BENCH_EVENTS events (10 000) on the real broker with the contracts'
 *     envelopes (bookings, check-outs, cancellations, records of another year) and times until the
 *     summary shows all of them. Target: ≤ 30 s.
 *
 * Env: BENCH_APPOINTMENTS, BENCH_RECORDS, BENCH_EVENTS, BENCH_QUERIES (200), MONGO_URL, AMQP_URL.
 */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import moment from 'moment-timezone';
import {
  appointmentAttended,
  appointmentBooked,
  appointmentCancelled,
  appointmentNoShow,
  CENTRE_TIME_ZONE,
  recordCreated,
  slotMinutesOfDay,
  type BookingChannel,
  type EventEnvelope,
  type ReportSummary,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import {
  busUrlsFor,
  deleteQueues,
  eventually,
  prepareBus,
  publishEnvelopes,
  uniqueId,
  waitForQueue,
} from '@crm/testing';
import { MongoFactStore } from '../../services/reporting/src/data/facts.repository';
import { reportingModels } from '../../services/reporting/src/data/reporting.models';
import { appointmentFact, recordFact, type Fact } from '../../services/reporting/src/domain/facts';
import { benchToken, BENCH_VERIFIER_ENV, BenchProcesses, freePort } from '../lib/harness';

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 30_000);
const RECORDS = Math.min(APPOINTMENTS, Number(process.env.BENCH_RECORDS ?? 25_000));
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
/** The deployables' own broker users (created by `npm run infra:up`); AMQP_URL is the operator's. */
const busUrls = busUrlsFor(AMQP_URL);
const RUN = `bench_reporting_${randomBytes(4).toString('hex')}`;
const EXCHANGE = `${RUN}.events`;
const HISTORY_YEAR = 2025;
const CATCH_UP_YEAR = 2027;
const CHANNELS: BookingChannel[] = ['patient', 'patient', 'staff', 'kiosk'];
const CERTIFICATES = ['Permiso de conducir', 'Licencia de armas', 'Seguridad privada', 'Estudios'];
const processes = new BenchProcesses();

/** The grid slots of the weekdays of a year, as instants, in order. */
function slotsOf(year: number): Date[] {
  const slots: Date[] = [];
  const minutes = slotMinutesOfDay();
  for (const day = moment.tz(`${year}-01-01`, CENTRE_TIME_ZONE); day.year() === year; day.add(1, 'day')) {
    if (day.isoWeekday() > 5) continue;
    for (const minute of minutes) slots.push(day.clone().add(minute, 'minutes').toDate());
  }
  return slots;
}

/** `count` appointments spread over the year's slots (several per slot when there are more than slots). */
function appointmentsOf(year: number, count: number) {
  const slots = slotsOf(year);
  return Array.from({ length: count }, (_, i) => ({
    id: uniqueId(),
    date: slots[Math.floor((i * slots.length) / count)]!.toISOString(),
    channel: CHANNELS[i % CHANNELS.length]!,
    i,
  }));
}

function historyFacts(): Fact[] {
  const facts: Fact[] = [];
  for (const a of appointmentsOf(HISTORY_YEAR, APPOINTMENTS)) {
    const booked = new Date(Date.parse(a.date) - 5 * 86_400_000).toISOString();
    facts.push(appointmentFact('booked', a, booked, 24));
    const end = new Date(Date.parse(a.date) + 15 * 60_000).toISOString();
    if (a.i < RECORDS) {
      facts.push(appointmentFact('attended', a, end, 24));
      facts.push(
        recordFact(
          {
            id: a.id,
            dateId: a.id,
            billing: {
              gross: 40 + (a.i % 4) * 7,
              currency: 'EUR',
              certificateType: CERTIFICATES[a.i % CERTIFICATES.length],
              revision: 1,
              appointmentDate: a.date,
            },
          },
          end,
        )!,
      );
    } else if (a.i % 2 === 0) facts.push(appointmentFact('noShow', a, end, 24));
    else
      facts.push(
        appointmentFact('cancelled', a, new Date(Date.parse(a.date) - 2 * 86_400_000).toISOString(), 24),
      );
  }
  return facts;
}

/** EVENTS envelopes of the catch-up year: half bookings, then attended, no-shows, cancellations and records. */
function catchUpEvents() {
  const bookings = Math.ceil(EVENTS / 2);
  const rest = EVENTS - bookings;
  const appointments = appointmentsOf(CATCH_UP_YEAR, bookings);
  const patient = { id: uniqueId(), name: 'Paciente', email: 'bench@example.test' };
  const by = { id: uniqueId(), rol: 'ADMIN' as const };
  const data = (a: (typeof appointments)[number]) => ({ ...a, pacientId: patient.id, user: patient, by });
  const envelopes: EventEnvelope[] = appointments.map((a) => createEnvelope(appointmentBooked, data(a), RUN));
  const expected = { booked: bookings, attended: 0, noShow: 0, cancelled: 0, records: 0 };
  for (let i = 0; i < rest; i++) {
    const a = appointments[i % appointments.length]!;
    const end = new Date(Date.parse(a.date) + 15 * 60_000).toISOString();
    switch (i % 4) {
      case 0:
        envelopes.push(createEnvelope(appointmentAttended, { ...data(a), endedAt: end }, RUN));
        expected.attended++;
        break;
      case 1:
        envelopes.push(createEnvelope(appointmentNoShow, { ...data(a), endedAt: end }, RUN));
        expected.noShow++;
        break;
      case 2:
        envelopes.push(createEnvelope(appointmentCancelled, data(a), RUN));
        expected.cancelled++;
        break;
      default:
        envelopes.push(
          createEnvelope(
            recordCreated,
            {
              id: a.id,
              userId: patient.id,
              dateId: a.id,
              doctorId: by.id,
              configVersion: 1,
              billing: {
                gross: 54,
                currency: 'EUR',
                certificateType: CERTIFICATES[0],
                revision: 1,
                appointmentDate: a.date,
              },
            },
            RUN,
          ),
        );
        expected.records++;
    }
  }
  return { envelopes, expected };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main(): Promise<void> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const token = benchToken({ id: uniqueId(), rol: 'ADMIN' });
  const summary = async (year: number) => {
    const response = await fetch(`${url}/reports/summary?from=${year}-01-01&to=${year}-12-31`, {
      headers: { authorization: `Bearer ${token}` },
    });
    if (!response.ok) throw new Error(`summary answered ${response.status}`);
    return (await response.json()) as ReportSummary;
  };

  // 1. The history, straight through the repository.
  const connection = await mongoose.createConnection(MONGO_URL, { dbName: RUN }).asPromise();
  const models = reportingModels(connection);
  await models.Fact.syncIndexes();
  const store = new MongoFactStore(models);
  const facts = historyFacts();
  let started = Date.now();
  for (let i = 0; i < facts.length; i += 2_000) await store.putMany(facts.slice(i, i + 2_000));
  const days = [...new Set(facts.map((fact) => fact.day))];
  for (let i = 0; i < days.length; i += 50) await store.recompute(days.slice(i, i + 50), 1900);
  // Totalled already: the service's reconciliation starts from here, as after its own feed.
  const loadedAt = new Date();
  await store.setReconciledUntil(loadedAt);
  console.log(
    `history: ${APPOINTMENTS} appointments, ${RECORDS} records → ${facts.length} facts on ${days.length} days, ` +
      `loaded and totalled in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  // What a deployment's broker definitions declare: the exchange (the service may not create it).
  await prepareBus(AMQP_URL, { exchange: EXCHANGE, queuePrefix: RUN });
  processes.start('services/reporting/src/main.ts', {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    ...BENCH_VERIFIER_ENV,
    PORT: String(port),
    MONGO_URL,
    MONGO_DB: RUN,
    AMQP_URL: busUrls.reporting,
    EVENTS_EXCHANGE: EXCHANGE,
    QUEUE_PREFIX: RUN,
    CONFIG_SERVICE_URL: `http://127.0.0.1:${await freePort()}`, // none: the default 24 h window
    UPSTREAM_TIMEOUT_MS: '200',
  });
  await eventually(
    async () => (await fetch(`${url}/readyz`)).ok,
    30_000,
    'the reporting service to be ready',
    { retryOnError: true },
  );

  // Its start-up reconciliation looks a minute behind the watermark, so it recomputes every day
  // just loaded: the query figures are for the steady state after it (its duration is printed).
  const reconcileStarted = Date.now();
  await eventually(
    async () => ((await store.reconciledUntil()) ?? loadedAt) > loadedAt,
    120_000,
    'the start-up reconciliation',
    { retryOnError: true },
  );
  const reconciled = (Date.now() - reconcileStarted) / 1000;
  const year = await summary(HISTORY_YEAR);
  if (year.totals.booked !== APPOINTMENTS || year.totals.records !== RECORDS)
    throw new Error(`history totals wrong: ${JSON.stringify(year.totals).slice(0, 200)}`);
  for (let i = 0; i < 20; i++) await summary(HISTORY_YEAR);
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i++) {
    const t = process.hrtime.bigint();
    await summary(HISTORY_YEAR);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  const p99 = percentile(times, 99);

  // 2. Catch-up on the real broker.
  await waitForQueue(AMQP_URL, `${RUN}.reporting.facts`, { timeoutMs: 120_000 });
  const { envelopes, expected } = catchUpEvents();
  started = Date.now();
  // As the appointments and records services' relays would: with their broker users (user_id).
  await publishEnvelopes((publisher) => busUrls[publisher], EXCHANGE, envelopes);
  const published = (Date.now() - started) / 1000;
  let seen: Record<string, unknown> = {};
  await eventually(
    async () => {
      const t = (await summary(CATCH_UP_YEAR)).totals;
      seen = {
        at: `${((Date.now() - started) / 1000).toFixed(1)} s`,
        booked: t.booked,
        attended: t.attended,
        noShow: t.noShow,
        cancelled: t.cancelled,
        records: t.records,
      };
      return (
        t.booked === expected.booked &&
        t.attended === expected.attended &&
        t.noShow === expected.noShow &&
        t.cancelled === expected.cancelled &&
        t.records === expected.records
      );
    },
    300_000,
    'the read model to catch up',
    { retryOnError: true },
  ).catch((error: Error) => {
    throw new Error(
      `${error.message}; expected ${JSON.stringify(expected)}, last seen ${JSON.stringify(seen)}`,
    );
  });
  const caughtUp = (Date.now() - started) / 1000;

  console.log('');
  console.log('| figure | measured | target |');
  console.log('|---|---|---|');
  console.log(
    `| summary of a year (${facts.length} facts, ${QUERIES} sequential calls) p50 | ${p50.toFixed(1)} ms | |`,
  );
  console.log(`| summary of a year p99 | ${p99.toFixed(1)} ms | ≤ 300 ms |`);
  console.log(`| start-up reconciliation of the ${days.length} days loaded | ${reconciled.toFixed(1)} s | |`);
  console.log(
    `| catch-up of ${EVENTS} events (published in ${published.toFixed(1)} s) | ${caughtUp.toFixed(1)} s (${Math.round(EVENTS / caughtUp)} events/s) | ≤ 30 s |`,
  );

  await processes.stop();
  await connection.dropDatabase();
  await connection.close();
  await deleteQueues(AMQP_URL, [`${RUN}.reporting.facts`, `${RUN}.reporting.sessions`], [EXCHANGE]);
  const ok = p99 <= 300 && caughtUp <= 30;
  console.log(ok ? 'targets met' : 'TARGET MISSED');
  process.exitCode = ok ? 0 : 1;
}

main().catch(async (error: unknown) => {
  console.error(error);
  await processes.stop();
  process.exit(1);
});
