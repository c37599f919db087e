/**
 * The growth benchmark's passes with 1 000 due (run.ts): for each background job, 1 000 items made
 * due as the services themselves leave them (through their own code, or their bulk seed modules,
 * which write the documents the services write), the timed pass that handles them, a check that it
 * did, and the clean-up of what is left, so that the later reads and stages see none of it.
 *
 * The items stay away from the seeded centre: patients of their own, days years back or months ahead
 * where the seeded history has nothing. Where a pass makes the e-mail worker write to patients
 * (reminders, waiting-list offers), those patients have an erased account's address, to which the
 * mailer sends nothing (services/notifications/src/mail/mailer.ts): the worker handles the events as
 * always, without thousands of e-mails in the SMTP catcher that other stacks share. After each job
 * the bench waits for the consumers to empty their queues (`settle`), so the events a pass published
 * are handled before the clean-up and do not weigh on the next measurement.
 *
 * Each job answers a `DuePass`; one that handled fewer than `DUE` says why in `shortfall`.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import amqp, { type Channel, type ChannelModel } from 'amqplib';
import moment from 'moment-timezone';
import type { Connection } from 'mongoose';
import { CENTRE_TIME_ZONE, erasedEmail, ROOM_SLOT_RULES, slotMinutesOfDay } from '@crm/contracts';
import type { OutboxRelay } from '@crm/event-bus';
import { ENDED_SESSIONS_COLLECTION } from '@crm/server-kit/service';
import { eventually } from '@crm/testing';
import type { Stack } from '../../test-support/stack';
import type { AppointmentsService } from '../../services/appointments/src/app';
import type { AuthService } from '../../services/auth/src/app';
import type { RecordsService } from '../../services/records/src/app';
import type { RoomsService } from '../../services/rooms/src/app';
import {
  seedAppointments,
  seedBookingCode,
  seedObjectId,
  seedOffers,
  seedPatients,
  seedWaitlist,
} from '../../services/appointments/src/data/appointment.seed-bulk';
import type { WaitlistModels } from '../../services/appointments/src/data/waitlist.model';
import {
  seedRecords,
  seedUnpublishedRecords,
  type SeedRecord,
} from '../../services/records/src/data/record.seed-bulk';
import {
  seedAbandonedLocks,
  seedUnpublishedReservations,
} from '../../services/rooms/src/data/reservation.seed-bulk';
import { seedReminders } from '../../services/notifications/src/reminders/reminder.seed-bulk';
import { claimDueReminders } from '../../services/notifications/src/reminders/reminders';
import type { ReminderStore } from '../../services/notifications/src/reminders/reminder.store';
import { DOCTORS, field, patientOf, ROOMS, type Plan } from './dataset';

/** How many items each job finds due: GROWTH_DUE, default the 1 000 (the smoke test: 50). */
export const DUE = Number(process.env.GROWTH_DUE ?? 1000);

export interface DueContext {
  stack: Stack;
  plan: Plan;
  appointments: AppointmentsService;
  records: RecordsService;
  rooms: RoomsService;
  auth: AuthService;
  notificationsDb: Connection;
  reminders: ReminderStore;
  waitlist: WaitlistModels;
}

export interface DuePass {
  /** The job, named as in the nothing-due rows ("no-show sweep", …). */
  job: string;
  ms: number;
  /** What the pass did, for the log. */
  did: string;
  /** Why it handled fewer than `DUE` (printed as a warning); absent when it handled them all. */
  shortfall?: string;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Records of erased patients made before this are past their retention (RECORDS_RETENTION_YEARS = 5). */
export const retentionCutoff = (plan: Plan) => new Date(plan.now.getTime() - 5 * 365.25 * DAY);

interface DuePatient {
  id: string;
  name: string;
  email: string;
  phone: string;
}

/** Patients of the due items: none of the seeded centre's, each job its own (`first` on). */
function duePatients(first: number, count: number): DuePatient[] {
  return Array.from({ length: count }, (_, k) => {
    const { id, name, phone } = patientOf(1_000_000 + first + k);
    return { id, name, email: erasedEmail(id), phone };
  });
}

const ids = (prefix: string, count = DUE) =>
  Array.from({ length: count }, (_, k) => seedObjectId(`${prefix}-${k}`));
/** The no-show sweep's appointments, whose events are then the appointments relay's backlog. */
const NO_SHOW_IDS = ids('due-no-show');

/** `count` instants at these minutes of the working days from `daysAhead` days after the plan's now (< 0: back). */
function workingDaySlots(plan: Plan, daysAhead: number, minutes: readonly number[], count: number): Date[] {
  const slots: Date[] = [];
  const day = moment.tz(plan.now, CENTRE_TIME_ZONE).startOf('day').add(daysAhead, 'days');
  for (; slots.length < count; day.add(1, 'day')) {
    if (day.isoWeekday() > 5) continue;
    for (const minute of minutes.slice(0, count - slots.length))
      slots.push(day.clone().add(minute, 'minutes').toDate());
  }
  return slots;
}

/** The booking grid's slots (28 a working day). */
const gridSlots = (plan: Plan, daysAhead: number, count: number) =>
  workingDaySlots(plan, daysAhead, slotMinutesOfDay(), count);

/** Room slots: each room's hourly slots (08:00 to 17:00) of the working days. */
function roomSlots(plan: Plan, daysAhead: number, count: number) {
  const hours = Array.from(
    { length: ROOM_SLOT_RULES.hoursPerDay },
    (_, h) => (ROOM_SLOT_RULES.firstHour + h) * 60,
  );
  return workingDaySlots(plan, daysAhead, hours, Math.ceil(count / ROOMS.length))
    .flatMap((date) => ROOMS.map((room) => ({ room, date })))
    .slice(0, count);
}

/** A clinical record as the records service stores it, of a form without a price field. */
function dueRecord(id: string, patient: DuePatient, date: Date, k: number): SeedRecord {
  const doctor = DOCTORS[k % DOCTORS.length]!;
  return {
    id,
    userId: patient.id,
    dateId: seedObjectId(`${id}-appointment`),
    doctor,
    user: { name: patient.name },
    date: { date },
    metadata: {
      certificateType: field('certificateType', 'Permiso de conducir'),
      weight: field('weight', String(60 + (k % 40))),
      result: field('result', 'Apto'),
    },
    configVersion: 1,
    view: 'doctor/appointments/:id',
    revision: 1,
    updatedBy: { id: doctor.id },
    createdAt: new Date(date.getTime() + 20 * MINUTE),
    updatedAt: new Date(date.getTime() + 25 * MINUTE),
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

const shortfall = (handled: number, what: string) =>
  handled >= DUE ? undefined : `only ${handled} of ${DUE} ${what}`;

/**
 * Restarts a relay that was stopped while its backlog was written (as after a broker outage) and
 * times it publishing the backlog: its start-up pass and the passes after it until one finds less
 * than a batch. A pass takes 100 documents of each collection and the relay runs the next at once
 * when a batch was full, so 1 000 entries are ten passes (ours and the relay's own, taking turns).
 */
async function drain(relay: OutboxRelay): Promise<{ ms: number; failed: boolean }> {
  const started = performance.now();
  relay.start();
  let result;
  do result = await relay.runOnce();
  while (result.more && !result.failed);
  return { ms: performance.now() - started, failed: result.failed };
}

/**
 * A relay's pass with 1 000 entries due: the relay is stopped while `write` makes the backlog (as
 * during a broker outage), then `drain` times it; `pending` counts the entries still unpublished
 * after it. Here the consumers of those events run in the same process (test-support/stack.ts), so
 * their work shares the machine with the relay's, as it would on a host running them all.
 */
async function relayPass(
  stack: Stack,
  job: string,
  relay: OutboxRelay,
  backlog: { write: () => Promise<unknown>; pending: () => Promise<number>; cleanUp: () => Promise<unknown> },
): Promise<DuePass> {
  await relay.stop();
  try {
    await backlog.write();
  } catch (error) {
    relay.start();
    throw error;
  }
  const { ms, failed } = await drain(relay);
  const published = DUE - (await backlog.pending());
  await settle(stack);
  await backlog.cleanUp();
  return {
    job,
    ms,
    did: `${published} events published`,
    shortfall: failed ? 'a pass failed' : shortfall(published, 'published'),
  };
}

/** Messages waiting in these queues (a queue not declared counts as empty). */
async function waiting(connection: ChannelModel, queues: readonly string[]): Promise<number> {
  const open = async () => {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    return channel;
  };
  let channel: Channel = await open();
  let total = 0;
  for (const queue of queues) {
    try {
      total += (await channel.checkQueue(queue)).messageCount;
    } catch {
      channel = await open(); // the broker closes the channel that asked for a missing queue
    }
  }
  await channel.close().catch(() => undefined);
  return total;
}

/** Waits (two minutes at most, then warns) until the stack's consumers have emptied their queues. */
async function settle(stack: Stack): Promise<void> {
  const queues = Object.values(stack.components)
    .flatMap((component) => component?.handle.queueNames?.() ?? [])
    .filter((queue) => !/\.(retry|dlq)$/.test(queue));
  const connection = await amqp.connect(stack.amqpUrl);
  connection.on('error', () => undefined);
  try {
    await eventually(async () => (await waiting(connection, queues)) === 0, 120_000, 'empty queues', {
      intervalMs: 250,
    });
  } catch (error) {
    console.log(`  WARNING: the consumers are still busy: ${(error as Error).message}`);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * No-show sweep: 1 000 appointments booked by staff for patients of their own, on working days about
 * six years back (before the seeded history), still `booked`: every one is a no-show. The
 * appointments relay is stopped meanwhile: the time is the sweep's own, and its 1 000 noShow events
 * stay in the outbox as the backlog `appointmentsRelay` (run next) publishes.
 */
export async function noShowSweep({ plan, appointments }: DueContext): Promise<DuePass> {
  const patients = duePatients(0, DUE);
  await appointments.relay.stop();
  await seedAppointments(
    appointments.models,
    gridSlots(plan, -2200, DUE).map((date, k) => ({
      id: NO_SHOW_IDS[k]!,
      patient: patients[k]!,
      date,
      bookedAt: new Date(date.getTime() - 7 * DAY),
      bookedBy: { id: DOCTORS[k % DOCTORS.length]!.id, rol: 'DOCTOR' },
      // Staff bookings: the release of unconfirmed accounts' web bookings leaves them alone.
      channel: 'staff',
      walkIn: false,
      outcome: 'booked',
      bookingCode: seedBookingCode(40_000_000 + k),
    })),
  );
  const { ms, result } = await timed(() => appointments.lifecycle.sweep());
  return {
    job: 'no-show sweep',
    ms,
    did: `${result.noShow} no-shows, ${result.attended} attended`,
    shortfall: shortfall(result.noShow, 'marked no-show'),
  };
}

/**
 * Appointments outbox relay: publishes the 1 000 noShow events `noShowSweep` left (real events of
 * those appointments). Their consumers: reporting stores a no-show fact on those days years back
 * (the same 1 000 facts at every stage, the ids being the same), notifications drops their reminders
 * (a tombstone each, deleted here), payments is not started; nobody is e-mailed about a no-show.
 * Fake booked or cancelled events would have sent e-mails and added reminders and report figures.
 */
export function appointmentsRelay({ stack, appointments, notificationsDb }: DueContext): Promise<DuePass> {
  const mine = { appointmentId: { $in: NO_SHOW_IDS } };
  return relayPass(stack, 'appointments outbox relay', appointments.relay, {
    // Written by the no-show sweep, run just before with the relay stopped.
    write: async () => undefined,
    pending: () => appointments.models.Appointment.countDocuments({ ...mine, outboxPending: true }),
    cleanUp: async () => {
      await appointments.models.Appointment.deleteMany(mine);
      await notificationsDb.model('Reminder').deleteMany({ _id: { $in: NO_SHOW_IDS } });
    },
  });
}

/**
 * Records outbox relay: 1 000 records just created (patients of their own, appointments six years
 * back) whose `records.record.created.v1` events were not published yet. Their consumers: the
 * appointments service marks the record's appointment attended (these name appointments that do not
 * exist: nothing), the records service's listing (already there), reporting (no price field in the
 * form, so no billing: nothing). Events with billing would have added revenue to the report.
 */
export function recordsRelay({ stack, plan, records }: DueContext): Promise<DuePass> {
  const { Revision, Listing } = records.models;
  const patients = duePatients(0, DUE);
  const recordIds = ids('due-unpublished-record');
  return relayPass(stack, 'records outbox relay', records.relay, {
    write: () =>
      seedUnpublishedRecords(
        records.models,
        gridSlots(plan, -2300, DUE).map((date, k) => dueRecord(recordIds[k]!, patients[k]!, date, k)),
      ),
    pending: () => Revision.countDocuments({ recordId: { $in: recordIds }, outboxPending: true }),
    cleanUp: async () => {
      await Revision.deleteMany({ recordId: { $in: recordIds } });
      await Listing.deleteMany({ _id: { $in: recordIds } });
    },
  });
}

/**
 * Rooms outbox relay: 1 000 room reservations just made (one hourly slot each, some five months
 * ahead where the seeded reservations have none) whose `rooms.reservation.reserved.v1` events were
 * not published yet. Nothing consumes those events (contracts: `consumers: []`).
 */
export function roomsRelay({ stack, plan, rooms }: DueContext): Promise<DuePass> {
  const { Reservation, SlotLock } = rooms.models;
  const reservationIds = ids('due-reservation');
  return relayPass(stack, 'rooms outbox relay', rooms.relay, {
    write: () =>
      seedUnpublishedReservations(
        rooms.models,
        roomSlots(plan, 150, DUE).map(({ room, date }, k) => ({
          id: reservationIds[k]!,
          room,
          doctor: DOCTORS[k % DOCTORS.length]!,
          dates: [date],
          createdAt: plan.now,
        })),
        plan.now,
      ),
    pending: () => Reservation.countDocuments({ _id: { $in: reservationIds }, outboxPending: true }),
    cleanUp: async () => {
      await Reservation.deleteMany({ _id: { $in: reservationIds } });
      await SlotLock.deleteMany({ reservationId: { $in: reservationIds } });
    },
  });
}

/**
 * Auth outbox relay: 1 000 sign-outs through the auth service's own `signOut` (tokens never issued,
 * valid ten more minutes), each storing its ended session with an `auth.session.ended.v1` event.
 * Their consumers, the seven services started that verify tokens, keep the fact until the token
 * would have expired, then forget it. Registrations or account changes would have e-mailed patients
 * and changed read models.
 */
export function authRelay({ stack, auth }: DueContext): Promise<DuePass> {
  const patients = duePatients(0, DUE);
  const tokenIds = patients.map(() => randomUUID());
  const expiresAt = Math.floor(Date.now() / 1000) + 600;
  return relayPass(stack, 'auth outbox relay', auth.relay, {
    write: async () => {
      for (const [k, tokenId] of tokenIds.entries())
        await auth.accounts.signOut({
          id: patients[k]!.id,
          rol: 'PACIENT',
          tokenId,
          issuedAt: expiresAt - 900,
          expiresAt,
        });
    },
    pending: () => auth.models.RevokedSession.countDocuments({ _id: { $in: tokenIds }, outboxPending: true }),
    cleanUp: async () => {
      await auth.models.RevokedSession.deleteMany({ _id: { $in: tokenIds } });
      // And the services' copies: each service reads its ended sessions every second, which on
      // FerretDB (a range: no index) decodes every one of them; 1 000 left for their ten minutes
      // would weigh on every figure measured after this pass.
      const copies = { _id: { $in: tokenIds.map((tokenId) => `token:${tokenId}`) } };
      for (const component of Object.values(stack.components))
        if (component)
          await auth.models.RevokedSession.db
            .useDb(component.database)
            .collection<{ _id: string }>(ENDED_SESSIONS_COLLECTION)
            .deleteMany(copies);
    },
  });
}

/**
 * Reminder sweep: 1 000 reminders due a minute ago, unclaimed, for appointments tomorrow. One call of
 * `claimDueReminders` claims 200 at most (the service calls it every `REMINDER_POLL_MS`): timed are
 * the calls it takes to claim them all. Each claim requests its e-mail (`notifications.reminder.due.v1`,
 * published by the notifications relay); the patients' addresses are erased ones, so none is sent.
 */
export async function reminderSweep({
  stack,
  plan,
  notificationsDb,
  reminders,
}: DueContext): Promise<DuePass> {
  const patients = duePatients(1000, DUE);
  const appointmentIds = ids('due-reminder');
  await seedReminders(
    notificationsDb,
    appointmentIds.map((appointmentId, k) => ({
      appointmentId,
      date: new Date(plan.now.getTime() + DAY + (k % 28) * 15 * MINUTE),
      user: { id: patients[k]!.id, name: patients[k]!.name, email: patients[k]!.email },
      dueAt: new Date(plan.now.getTime() - MINUTE),
    })),
  );
  let claimed = 0;
  let calls = 0;
  const { ms } = await timed(async () => {
    for (let last = -1; last !== 0 && claimed < DUE; calls++) {
      last = await claimDueReminders(reminders, plan.now);
      claimed += last;
    }
  });
  await settle(stack);
  await notificationsDb.model('Reminder').deleteMany({ _id: { $in: appointmentIds } });
  await reminders.sends.deleteMany({ _id: { $in: appointmentIds } });
  return {
    job: 'reminder sweep',
    ms,
    did: `${claimed} claimed in ${calls} calls`,
    shortfall: shortfall(claimed, `claimed (the last of the ${calls} calls claimed none)`),
  };
}

/**
 * Waiting-list sweep: 1 000 offers that expired a minute ago unclaimed, on the slots of 36 working
 * days about seven months ahead. Each day's line has two patients: the first, offered every freed
 * slot of the day (as `slotFreed` does), and the next, not offered them yet. So the sweep drops each
 * offer, tells the first patient it is gone and offers the slot to the next (2 000 e-mail events, to
 * erased addresses: none sent). As for the no-show sweep, the appointments relay is stopped while
 * the sweep runs (its time is the sweep's own; the relay rows time the publishing) and publishes the
 * sweep's events after it. Clean-up: the new offers, the records of offers, the lines, the patients.
 */
export async function waitlistSweep({ stack, plan, appointments, waitlist }: DueContext): Promise<DuePass> {
  const slots = gridSlots(plan, 210, DUE);
  const perDay = slotMinutesOfDay().length;
  const days = Math.ceil(DUE / perDay);
  const patients = duePatients(2000, 2 * days);
  const first = (day: number) => patients[2 * day]!;
  const offerIds = ids('due-offer');
  const now = new Date();
  await seedPatients(
    appointments.models,
    patients.map((p) => ({ ...p, asOf: now })),
  );
  await seedWaitlist(
    waitlist,
    patients.map((p, n) => ({
      pacientId: p.id,
      day: moment.tz(slots[Math.floor(n / 2) * perDay]!, CENTRE_TIME_ZONE).format('YYYY-MM-DD'),
      joinedAt: new Date(now.getTime() - (n % 2 === 0 ? 2 : 1) * DAY),
    })),
  );
  await seedOffers(
    appointments.models,
    waitlist,
    slots.map((date, k) => ({
      id: offerIds[k]!,
      patient: first(Math.floor(k / perDay)),
      date,
      offeredAt: new Date(now.getTime() - 16 * MINUTE),
      expiresAt: new Date(now.getTime() - MINUTE),
      bookingCode: seedBookingCode(41_000_000 + k),
    })),
  );
  await appointments.relay.stop();
  const { ms, result } = await timed(() => appointments.waitlist.sweep()).finally(() =>
    drain(appointments.relay),
  );
  await settle(stack);
  const theirs = { pacientId: { $in: patients.map((p) => p.id) } };
  await appointments.models.Appointment.deleteMany({ ...theirs, kind: 'offer' });
  await waitlist.WaitlistOffer.deleteMany(theirs);
  await waitlist.WaitlistEntry.deleteMany(theirs);
  await appointments.models.Patient.deleteMany({ _id: { $in: patients.map((p) => p.id) } });
  return {
    job: 'waiting-list sweep',
    ms,
    did: `${result.expired} offers expired, ${result.reoffered} offered to the next`,
    shortfall: shortfall(result.expired, 'expired offers dropped'),
  };
}

/**
 * Records retention sweep: 1 000 records made about 6.5 years ago (two each of 500 patients of their
 * own), whose patients then erased their account (the records service's own `pseudonymise`, as its
 * erasure consumer does): past the 5-year retention, the sweep deletes them all. Clean-up: the
 * erased patients (the sweep goes through every one of them, so they would slow the later passes).
 */
export async function retentionSweep({ plan, records }: DueContext): Promise<DuePass> {
  const patients = duePatients(3000, DUE / 2);
  const recordIds = ids('due-expired-record');
  await seedRecords(
    records.models,
    gridSlots(plan, -2400, DUE).map((date, k) =>
      dueRecord(recordIds[k]!, patients[k % patients.length]!, date, k),
    ),
  );
  for (const patient of patients)
    await records.erasure.pseudonymise(patient.id, new Date(plan.now.getTime() - DAY));
  const { ms, result: deleted } = await timed(() => records.erasure.deleteExpired(retentionCutoff(plan)));
  await records.models.ErasedPatient.deleteMany({ _id: { $in: patients.map((p) => p.id) } });
  await records.models.Revision.deleteMany({ recordId: { $in: recordIds } });
  await records.models.Listing.deleteMany({ _id: { $in: recordIds } });
  return {
    job: 'records retention sweep',
    ms,
    did: `${deleted} records deleted`,
    shortfall: shortfall(deleted, 'deleted'),
  };
}

/**
 * Room orphan-lock sweep: the locks of 1 000 reservation requests (one hourly slot each, some eight
 * months ahead) that died an hour ago between taking their lock and storing their reservation: past
 * the grace period, with no reservation behind them, the sweep removes them all.
 */
export async function orphanLockSweep({ plan, rooms }: DueContext): Promise<DuePass> {
  const requestIds = ids('due-abandoned-request');
  await seedAbandonedLocks(
    rooms.models,
    roomSlots(plan, 240, DUE).map(({ room, date }, k) => ({
      id: requestIds[k]!,
      room,
      dates: [date],
      createdAt: new Date(plan.now.getTime() - 60 * MINUTE),
    })),
    plan.now,
  );
  const { ms, result: removed } = await timed(() => rooms.sweeper.sweep(plan.now));
  await rooms.models.SlotLock.deleteMany({ reservationId: { $in: requestIds } });
  return {
    job: 'room orphan-lock sweep',
    ms,
    did: `${removed} locks removed`,
    shortfall: shortfall(removed, 'removed'),
  };
}
