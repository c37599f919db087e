/**
 * Booking benchmark (`npm run bench:booking`).
 *
 * Starts the in-process stack of the API tests (auth, appointments and the gateway, against the real
 * MongoDB-compatible server, RabbitMQ and Redis), registers N patients through the auth API, then
 * books one distinct slot per patient through the gateway with C concurrent clients and prints
 * bookings per second and latency percentiles. Then, with every client at once, it makes R rounds
 * of C patients race for one slot each. Finally it counts double bookings in the database
 * (slots with more than one booked appointment, patients with more than one active one): both must
 * be 0, or the process exits with 1. In the same run it measures the database floor: as many
 * single inserts of an appointment-sized document under two unique indexes (the booking's own
 * discipline), at the same concurrency, straight to the MongoDB-compatible server; bookings/s is
 * printed as a fraction of it (target: ≥ 50 %). For both it prints the CPU time spent per
 * booking and per insert by this process (client, gateway and services together) and by the
 * database server (Linux): on a shared machine they say which side is the limit.
 *
 * The appointments collection first gets BENCH_HISTORY ended appointments, as a centre's database
 * has after some months (work that reads the whole collection shows up in the figures).
 *
 * BENCH_TRACING=on|off|both (bench/lib/tracing-modes.ts): the stack traces and exports to a local
 * collector, or not, or both runs one after the other with the figures side by side.
 *
 * Env: BENCH_PATIENTS (default 400), BENCH_CONCURRENCY (default 20), BENCH_RACE_ROUNDS (default 20),
 * BENCH_HISTORY (default 5000).
 * Infrastructure as for the tests (URLs from the environment, else 127.0.0.1 defaults).
 */
import './tracing';
import { performance } from 'node:perf_hooks';
import { Types } from 'mongoose';
import { mintToken } from '@crm/testing';
import { keys } from '../../services/appointments/src/data/appointment.documents';
import { upcomingSlots } from '../../services/appointments/src/domain/slot-rules';
import type { AppointmentsService } from '../../services/appointments/src/app';
import { startStack, uniqueEmail, type Stack } from '../../test-support/stack';
import { cpuDuring } from '../lib/process-cpu';
import { checkCollector, printSummary, runBothModes, tracingMode } from '../lib/tracing-modes';

const PATIENTS = Number(process.env.BENCH_PATIENTS ?? 400);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);
const RACE_ROUNDS = Number(process.env.BENCH_RACE_ROUNDS ?? 20);
const HISTORY = Number(process.env.BENCH_HISTORY ?? 5000);

interface Patient {
  id: string;
  token: string;
}

/** Runs `work` over `items` with at most `concurrency` in flight. */
async function pool<T, R>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!, index);
      }
    }),
  );
  return results;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

async function registerPatients(stack: Stack, count: number): Promise<Patient[]> {
  const doctor = await stack.signIn('doctor@stack.test', 'Doctor1234!');
  return pool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const response = await stack.api.post(
        '/auth/doctor/patient/create',
        {
          name: `Paciente Bench ${i + 1}`,
          phone: `6${String(20_000_000 + i).padStart(8, '0')}`,
          email: uniqueEmail(`bench${i}`),
          password: 'contraseña-bench',
        },
        doctor,
      );
      if (response.status !== 201) throw new Error(`patient ${i} not created: ${response.status}`);
      // A token as sign-in would issue it; signing in N times would only measure argon2.
      return { id: response.body.id as string, token: mintToken({ id: response.body.id, rol: 'PACIENT' }) };
    },
  );
}

async function waitForReadModel(service: AppointmentsService, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await service.models.Patient.countDocuments()) < count) {
    if (Date.now() > deadline) throw new Error('the patients read model did not catch up within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function book(stack: Stack, patient: Patient, date: Date): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const response = await stack.api.post('/dates', { date: date.toISOString() }, patient.token);
  return { status: response.status, ms: performance.now() - started };
}

async function countDoubleBookings(service: AppointmentsService) {
  const booked = await service.models.Appointment.find({ status: 'booked' })
    .select({ appointmentId: 1, date: 1, pacientId: 1, walkIn: 1, _id: 0 })
    .lean<Array<{ appointmentId: string; date: Date; pacientId: string; walkIn: boolean }>>();
  const perSlot = new Map<number, Set<string>>();
  const perPatient = new Map<string, Set<string>>();
  for (const a of booked) {
    if (!a.walkIn)
      perSlot.set(a.date.getTime(), (perSlot.get(a.date.getTime()) ?? new Set()).add(a.appointmentId));
    perPatient.set(a.pacientId, (perPatient.get(a.pacientId) ?? new Set()).add(a.appointmentId));
  }
  return {
    booked: booked.length,
    slotsWithMoreThanOne: [...perSlot.values()].filter((ids) => ids.size > 1).length,
    patientsWithMoreThanOne: [...perPatient.values()].filter((ids) => ids.size > 1).length,
  };
}

/** `count` appointments attended over the past year, written straight to the collection. */
async function seedHistory(service: AppointmentsService, count: number): Promise<void> {
  const yearMs = 365 * 86_400_000;
  const documents = Array.from({ length: count }, (_, i) => {
    const id = new Types.ObjectId().toString();
    const date = new Date(Date.now() - yearMs + Math.floor((i * yearMs) / count));
    const patient = `history-${i % 2000}`;
    return {
      kind: 'final',
      appointmentId: id,
      slotKey: keys.released(id),
      activePatientKey: keys.endedAfterCheckIn(id),
      date,
      pacientId: patient,
      user: { id: patient, name: `Paciente Histórico ${i % 2000}`, email: 'historico@crm.test' },
      nameKey: `paciente historico ${i % 2000}`,
      bookedBy: { id: patient, rol: 'PACIENT' },
      channel: 'patient',
      walkIn: false,
      status: 'attended',
      endedAt: new Date(date.getTime() + 15 * 60_000),
    };
  });
  for (let i = 0; i < documents.length; i += 1000) {
    await service.models.Appointment.collection.insertMany(documents.slice(i, i + 1000));
  }
}

/**
 * The floor: `count` single inserts under two unique indexes at the booking's concurrency, of a
 * document shaped like a booked appointment, into a scratch collection of the same database.
 */
async function databaseFloor(service: AppointmentsService, count: number) {
  const template = await service.models.Appointment.findOne({ kind: 'active' }).lean<
    Record<string, unknown>
  >();
  const collection = service.models.Appointment.db.collection(`bench_floor_${Date.now()}`);
  await collection.createIndex({ slotKey: 1 }, { unique: true });
  await collection.createIndex({ activePatientKey: 1 }, { unique: true });
  const { _id: _ignored, ...shape } = template ?? {};
  try {
    const started = performance.now();
    const { result: latencies, ...cpu } = await cpuDuring(() =>
      pool(
        Array.from({ length: count }, (_, i) => i),
        CONCURRENCY,
        async (i) => {
          const t = performance.now();
          await collection.insertOne({
            ...shape,
            slotKey: `floor-slot-${i}`,
            activePatientKey: `floor-patient-${i}`,
          });
          return performance.now() - t;
        },
      ),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      count,
      cpu,
      insertsPerSecond: count / seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    await collection.drop().catch(() => undefined);
  }
}

async function main(): Promise<number> {
  if (tracingMode() === 'both') return runBothModes('bookings/s');
  await checkCollector();
  console.log(
    `starting the stack; ${HISTORY} past appointments, ${PATIENTS} patients, ${CONCURRENCY} concurrent clients…`,
  );
  const stack = await startStack({ components: ['auth', 'appointments'] });
  try {
    const service = stack.components.appointments!.handle as AppointmentsService;
    await seedHistory(service, HISTORY);
    const all = await registerPatients(stack, PATIENTS + RACE_ROUNDS * CONCURRENCY);
    await waitForReadModel(service, all.length);
    const [bookers, racers] = [all.slice(0, PATIENTS), all.slice(PATIENTS)];
    const slots = upcomingSlots(new Date(Date.now() + 86_400_000));
    const distinct = bookers.map(() => slots.next().value!);

    // Warm-up (JIT, connection pools): book and cancel again, which leaves slots and patients free.
    await pool(bookers.slice(0, CONCURRENCY), CONCURRENCY, async (patient, i) => {
      await book(stack, patient, distinct[i]!);
      await stack.api.delete(`/dates/${encodeURIComponent(distinct[i]!.toISOString())}`, patient.token);
    });

    const started = performance.now();
    const { result: results, ...cpu } = await cpuDuring(() =>
      pool(bookers, CONCURRENCY, (patient, i) => book(stack, patient, distinct[i]!)),
    );
    const seconds = (performance.now() - started) / 1000;
    const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
    const created = results.filter((r) => r.status === 201).length;

    // Contention: every round, CONCURRENCY fresh patients race for one slot.
    let raceWinners = 0;
    let raceRefused = 0;
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const slot = slots.next().value!;
      const group = racers.slice(round * CONCURRENCY, (round + 1) * CONCURRENCY);
      const outcome = await Promise.all(group.map((patient) => book(stack, patient, slot)));
      raceWinners += outcome.filter((r) => r.status === 201).length;
      raceRefused += outcome.filter((r) => r.status === 409).length;
    }

    const floor = await databaseFloor(service, bookers.length);
    const doubles = await countDoubleBookings(service);
    console.log('');
    console.log(
      '| phase                      | requests | 201  | other | bookings/s | p50 (ms) | p99 (ms) | max (ms) |',
    );
    console.log(
      '|----------------------------|----------|------|-------|------------|----------|----------|----------|',
    );
    console.log(
      `| distinct slots, ${String(CONCURRENCY).padStart(2)} clients | ${String(results.length).padStart(8)} | ${String(created).padStart(4)} | ${String(results.length - created).padStart(5)} | ${(created / seconds).toFixed(1).padStart(10)} | ${percentile(latencies, 50).toFixed(1).padStart(8)} | ${percentile(latencies, 99).toFixed(1).padStart(8)} | ${latencies[latencies.length - 1]!.toFixed(1).padStart(8)} |`,
    );
    const fraction = created / seconds / floor.insertsPerSecond;
    console.log(
      `| database floor (inserts)   | ${String(floor.count).padStart(8)} |  –   |   –   | ${floor.insertsPerSecond.toFixed(1).padStart(10)} | ${floor.p50.toFixed(1).padStart(8)} | ${floor.p99.toFixed(1).padStart(8)} |    –     |`,
    );
    const perItem = (seconds: number | undefined, items: number) =>
      seconds === undefined ? 'n/a' : `${((seconds * 1000) / items).toFixed(2)} ms`;
    console.log('');
    console.log(
      `CPU per booking: ${perItem(cpu.node, created)} in this process (client, gateway, services), ${perItem(cpu.database, created)} in the database server`,
    );
    console.log(
      `CPU per floor insert: ${perItem(floor.cpu.node, floor.count)} in this process, ${perItem(floor.cpu.database, floor.count)} in the database server`,
    );
    console.log(
      `bookings/s as a fraction of the database floor: ${(fraction * 100).toFixed(1)} % (target ≥ 50 %) → ${fraction >= 0.5 ? 'met' : 'NOT met'}`,
    );
    console.log(
      `contention: ${RACE_ROUNDS} rounds × ${CONCURRENCY} patients on one slot → ${raceWinners} booked, ${raceRefused} refused with 409 (expected ${RACE_ROUNDS} and ${RACE_ROUNDS * (CONCURRENCY - 1)})`,
    );
    console.log(
      `database: ${doubles.booked} booked appointments; slots with more than one: ${doubles.slotsWithMoreThanOne}; patients with more than one: ${doubles.patientsWithMoreThanOne}`,
    );
    const ok =
      doubles.slotsWithMoreThanOne === 0 &&
      doubles.patientsWithMoreThanOne === 0 &&
      created === PATIENTS &&
      raceWinners === RACE_ROUNDS &&
      raceRefused === RACE_ROUNDS * (CONCURRENCY - 1);
    console.log(ok ? 'no double bookings.' : 'FAILED: see the figures above.');
    printSummary({
      'bookings/s': created / seconds,
      'p50 (ms)': percentile(latencies, 50),
      'p99 (ms)': percentile(latencies, 99),
      'CPU ms per booking (this process)': cpu.node === undefined ? NaN : (cpu.node * 1000) / created,
    });
    return ok ? 0 : 1;
  } finally {
    await stack.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
