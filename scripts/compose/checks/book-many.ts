/**
 * Many patients booking at once (each one appointment), for runs where a service is killed in the
 * middle: every booking keeps trying until answered (booking.ts), and `verifyBookings` then reads
 * each patient's appointments to count bookings lost or doubled.
 */
import type { AppointmentView } from '@crm/contracts';
import { bookOwnSlot, type Booking } from './booking';
import { call, callUntilAnswered, expectStatus, inParallel } from './http';
import { newPerson, type PatientAccount, registerPatient, runPrefix, signInPatient } from './people';
import { freeSlots } from './slots';
import { signInStaff } from './staff';
import type { ComposeTarget } from './target';

export interface BookManyOptions {
  /** Patients booking at the same time (default: all). */
  parallel?: number;
  /** How long each booking keeps trying while unanswered (default 120 s). */
  deadlineMs?: number;
  /** Called once the patients are signed in and the slots found, just before the bookings start. */
  onReady?: () => void | Promise<void>;
}

export interface BookedPatient extends PatientAccount, Booking {}

export interface BookManyOutcome {
  attempted: number;
  booked: BookedPatient[];
  failed: Array<{ email: string; reason: string }>;
  /** Every patient made, booked or not: what `verifyBookings` reads. */
  patients: Array<PatientAccount & { appointmentId?: string }>;
  /** Bookings that needed more than one request. */
  retried: number;
  /** Bookings known only from a read after an unanswered request. */
  recoveredByRead: number;
  ms: number;
}

/** A shared pool of free slots: each is handed out once; more are looked up when it runs dry. */
function slotPool(t: ComposeTarget, first: string[]) {
  const handedOut = new Set<string>();
  const pool = [...first];
  return async (): Promise<string> => {
    if (pool.length === 0) pool.push(...(await freeSlots(t, 10, { exclude: handedOut })));
    const slot = pool.shift()!;
    handedOut.add(slot);
    return slot;
  };
}

export async function bookMany(
  t: ComposeTarget,
  n: number,
  options: BookManyOptions = {},
): Promise<BookManyOutcome> {
  const { parallel = n, deadlineMs = 120_000, onReady } = options;
  const doctor = await signInStaff(t, 'doctor');
  const prefix = runPrefix('many');
  const patients = await inParallel(
    Array.from({ length: n }, (_, i) => newPerson(prefix, i)),
    5,
    async (person) => {
      const account = await registerPatient(t, doctor.token, person);
      return { ...account, token: (await signInPatient(t, account)).token };
    },
  );
  const nextSlot = slotPool(t, await freeSlots(t, n + 5));
  await onReady?.();

  const started = Date.now();
  const booked: BookedPatient[] = [];
  const failed: BookManyOutcome['failed'] = [];
  await inParallel(patients, parallel, async (patient) => {
    try {
      booked.push({ ...patient, ...(await bookOwnSlot(t, patient.token, nextSlot, deadlineMs)) });
    } catch (error) {
      failed.push({ email: patient.email, reason: error instanceof Error ? error.message : String(error) });
    }
  });
  const outcome: BookManyOutcome = {
    attempted: n,
    booked,
    failed,
    patients: patients.map(({ token: _token, ...account }) => ({
      ...account,
      appointmentId: booked.find((b) => b.id === account.id)?.appointmentId,
    })),
    retried: booked.filter((b) => b.attempts > 1).length,
    recoveredByRead: booked.filter((b) => b.recoveredByRead).length,
    ms: Date.now() - started,
  };
  console.log(
    `bookMany: ${booked.length}/${n} booked, ${failed.length} failed, ${outcome.retried} retried, ${outcome.recoveredByRead} known by a read (${outcome.ms} ms)`,
  );
  return outcome;
}

export interface BookingCounts {
  patients: number;
  /** Patients with exactly one active appointment (the one their booking was answered with, if any). */
  exactlyOne: number;
  /** A booking was answered (201 or a read) and the patient has no active appointment. */
  lost: number;
  /** Patients with more than one active appointment. */
  doubled: number;
  /** No booking was ever answered and none exists (failed cleanly). */
  unbooked: number;
  /** One active appointment, not the one the booking was answered with. */
  mismatched: number;
  /** Slots held by more than one of these patients. */
  sharedSlots: number;
  ms: number;
}

const ACTIVE = new Set(['booked', 'checkedIn']);

/** Reads each patient's appointments as the patient (`GET /dates/history/userid/:id`) and counts. */
export async function verifyBookings(
  t: ComposeTarget,
  patients: ReadonlyArray<PatientAccount & { appointmentId?: string }>,
): Promise<BookingCounts> {
  const started = Date.now();
  const actives = await inParallel(patients, 5, async (patient) => {
    const { token } = await signInPatient(t, patient);
    const answer = await callUntilAnswered(() =>
      call(t, 'GET', `/dates/history/userid/${patient.id}`, { token }),
    );
    const history = expectStatus(answer, 200, `appointments of ${patient.email}`).body
      .appointments as AppointmentView[];
    return history.filter((appointment) => ACTIVE.has(appointment.status));
  });
  const counts: BookingCounts = {
    patients: patients.length,
    exactlyOne: 0,
    lost: 0,
    doubled: 0,
    unbooked: 0,
    mismatched: 0,
    sharedSlots: 0,
    ms: 0,
  };
  const holders = new Map<string, number>();
  patients.forEach((patient, i) => {
    const active = actives[i]!;
    for (const appointment of active) holders.set(appointment.date, (holders.get(appointment.date) ?? 0) + 1);
    if (active.length > 1) counts.doubled += 1;
    else if (active.length === 0) counts[patient.appointmentId ? 'lost' : 'unbooked'] += 1;
    else if (patient.appointmentId && active[0]!.id !== patient.appointmentId) counts.mismatched += 1;
    else counts.exactlyOne += 1;
  });
  counts.sharedSlots = [...holders.values()].filter((n) => n > 1).length;
  counts.ms = Date.now() - started;
  console.log(
    `verifyBookings: ${counts.exactlyOne}/${counts.patients} exactly one, lost ${counts.lost}, doubled ${counts.doubled}, unbooked ${counts.unbooked}, mismatched ${counts.mismatched}, shared slots ${counts.sharedSlots} (${counts.ms} ms)`,
  );
  return counts;
}
