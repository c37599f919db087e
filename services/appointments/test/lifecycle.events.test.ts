import { Types } from 'mongoose';
import { createLogger } from '@crm/server-kit';
import { eventually, listenForMessages, waitForQueue } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import { startStack, type Stack } from '../../../test-support/stack';
import { createAppointmentsService, type AppointmentsService } from '../src/app';
import { loadAppointmentsConfig } from '../src/config';
import { BookingService } from '../src/domain/booking.service';
import { LifecycleService } from '../src/domain/lifecycle.service';
import { PatientDirectory } from '../src/domain/patient';
import {
  bookedAt,
  checkedInAt,
  earlierToday,
  ghostPatient,
  minutesFromNow,
  publishRecordCreated,
  yesterdayAtTen,
} from './support/fixtures';
import {
  appointmentsStackReady,
  createPatients,
  staffTokens,
  type StaffTokens,
  type TestPatient,
} from './support/people';

/**
 * The lifecycle, what happens without a call: a clinical record saved (records.record.created.v1 on the
 * exchange) marks its appointment attended; the no-show sweep, run by two replicas at once, moves
 * each due appointment once with one event; housekeeping finishes a kiosk swap a crash cut short;
 * an appointment ended before the relay published its booked event still announces both, in order.
 */

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
let nextPatient = 0;
const slots = slotAllocator(7);
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;
const statusOf = async (id: string) => (await service().repositories.appointments.findById(id))?.status;
/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);

beforeAll(async () => {
  // The sweep runs only when a test says so (once at start-up, on an empty database).
  stack = await startStack({
    components: ['auth', 'notifications', 'appointments'],
    env: { NO_SHOW_SWEEP_INTERVAL_MS: '3600000' },
  });
  await appointmentsStackReady(stack);
  await waitForQueue(stack.amqpUrl, `${stack.env.QUEUE_PREFIX}.appointments.records`);
  staff = await staffTokens(stack);
  patients = await createPatients(stack, staff.DOCTOR, 5, 'events');
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const walkIn = async (patient: TestPatient) => {
  const response = await stack.api.post(
    '/dates/service',
    { pacientId: patient.id, code: await codes(patient.email) },
    staff.SERVICE_ACCOUNT,
  );
  expect(response.status).toBe(201);
  return response.body as { id: string; date: string };
};

describe('a clinical record saved marks its appointment attended (records.record.created.v1)', () => {
  it('marks a booked or checked-in appointment attended once, whatever arrives twice, and leaves ended ones alone', async () => {
    const [booked, checkedIn, cancelled] = [freshPatient(), freshPatient(), freshPatient()];
    const a = await walkIn(booked);
    const b = await walkIn(checkedIn);
    expect((await stack.api.post(`/dates/checkin/${b.id}`, {}, staff.DOCTOR)).status).toBe(200);
    const c = await walkIn(cancelled);
    expect((await stack.api.delete(`/dates/cancel/${c.id}`, staff.DOCTOR)).status).toBe(200);
    const events = await listenForMessages<{ data: { id: string; recordId?: string; checkedInAt?: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.attended.v1',
    );

    const doctorId = String(new Types.ObjectId());
    const record = (dateId: string, userId: string) => ({
      id: String(new Types.ObjectId()),
      userId,
      dateId,
      doctorId,
    });
    const first = record(a.id, booked.id);
    const eventId = await publishRecordCreated(stack.busUrl, stack.exchange, first);
    await publishRecordCreated(stack.busUrl, stack.exchange, first, eventId); // redelivered
    await publishRecordCreated(stack.busUrl, stack.exchange, record(a.id, booked.id)); // a second record
    await publishRecordCreated(stack.busUrl, stack.exchange, record(b.id, checkedIn.id));
    await publishRecordCreated(stack.busUrl, stack.exchange, record(c.id, cancelled.id));
    await publishRecordCreated(stack.busUrl, stack.exchange, record(String(new Types.ObjectId()), booked.id));

    await eventually(async () => ((await statusOf(a.id)) === 'attended' ? true : undefined));
    await eventually(async () => ((await statusOf(b.id)) === 'attended' ? true : undefined));
    const viewA = await stack.api.get(`/dates/id/${a.id}`, staff.DOCTOR);
    expect(viewA.body).toMatchObject({ status: 'attended', endedAt: expect.any(String) });
    const viewB = await stack.api.get(`/dates/id/${b.id}`, staff.DOCTOR);
    expect(viewB.body).toMatchObject({ status: 'attended', checkedInAt: expect.any(String) });

    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await statusOf(c.id)).toBe('cancelled');
    const attendedA = events.received.filter((m) => m.body.data.id === a.id);
    expect(attendedA).toHaveLength(1);
    expect(attendedA[0]!.body.data).toMatchObject({ recordId: first.id });
    expect(attendedA[0]!.body.data).not.toHaveProperty('by');
    expect(events.received.filter((m) => m.body.data.id === b.id)).toHaveLength(1);
    expect(events.received.filter((m) => m.body.data.id === c.id)).toHaveLength(0);
    await events.close();
    // The patient is free again.
    expect(
      (
        await stack.api.post(
          '/dates/service',
          { pacientId: booked.id, code: await codes(booked.email) },
          staff.SERVICE_ACCOUNT,
        )
      ).status,
    ).toBe(201);
  });
});

describe('the no-show sweep', () => {
  it('moves each due appointment once, with one event, when two replicas sweep at the same time', async () => {
    const replica = createAppointmentsService(
      loadAppointmentsConfig({
        ...stack.envFor('appointments'),
        MONGO_DB: stack.components.appointments!.databases[0],
        NO_SHOW_SWEEP_INTERVAL_MS: '3600000',
      }),
      createLogger('replica', 'silent'),
    );
    await replica.start();
    try {
      const due = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          bookedAt(service(), ghostPatient(`due${i}`), minutesFromNow(-50 - i)),
        ),
      );
      const notYet = await bookedAt(service(), ghostPatient('notyet'), minutesFromNow(-20));
      const yesterday = await checkedInAt(
        service(),
        await bookedAt(service(), ghostPatient('yesterday'), yesterdayAtTen()),
        new Date(yesterdayAtTen().getTime() - 5 * 60_000),
      );
      const today = await checkedInAt(
        service(),
        await bookedAt(service(), ghostPatient('today'), earlierToday(50)),
        earlierToday(55),
      );
      const events = await listenForMessages<{ data: { id: string; by?: unknown } }>(
        stack.amqpUrl,
        stack.exchange,
        'appointments.appointment.*.v1',
      );

      const runs = await Promise.all([
        service().lifecycle.sweep(),
        replica.lifecycle.sweep(),
        service().lifecycle.sweep(),
        replica.lifecycle.sweep(),
      ]);
      const total = runs.reduce((sum, r) => ({
        noShow: sum.noShow + r.noShow,
        attended: sum.attended + r.attended,
      }));
      expect(total).toEqual({ noShow: due.length, attended: 1 });

      for (const appointment of due) expect(await statusOf(appointment.id)).toBe('noShow');
      expect(await statusOf(notYet.id)).toBe('booked');
      expect(await statusOf(yesterday.id)).toBe('attended');
      expect(await statusOf(today.id)).toBe('checkedIn');

      await new Promise((resolve) => setTimeout(resolve, 2000));
      // The fixtures' own booked and checked-in events may still be on their way: only ends count.
      const transitions = events.received.filter((m) => !/\.(booked|checkedIn)\.v1$/.test(m.routingKey));
      for (const appointment of due) {
        const theirs = transitions.filter((m) => m.body.data.id === appointment.id);
        expect(theirs.map((m) => m.routingKey)).toEqual(['appointments.appointment.noShow.v1']);
        expect(theirs[0]!.body.data.by).toBeUndefined();
      }
      expect(transitions.filter((m) => m.body.data.id === yesterday.id).map((m) => m.routingKey)).toEqual([
        'appointments.appointment.attended.v1',
      ]);
      expect(transitions.filter((m) => [notYet.id, today.id].includes(m.body.data.id))).toEqual([]);
      await events.close();

      // Idempotent: nothing is due any more.
      expect(await replica.lifecycle.sweep()).toEqual({ noShow: 0, attended: 0 });
    } finally {
      await replica.stop();
    }
  });
});

describe('housekeeping', () => {
  it('writes the walk-in of a kiosk swap whose second write never happened (a crash)', async () => {
    const patient = freshPatient();
    const { repositories, lifecycle } = service();
    const later = await stack.api.post(
      '/dates/admin',
      { pacientId: patient.id, date: slots.next() },
      staff.DOCTOR,
    );
    expect(later.status).toBe(201);
    const replaced = later.body as { id: string };
    const walkInId = repositories.appointments.newId();
    const kioskActor = { id: String(new Types.ObjectId()), rol: 'SERVICE_ACCOUNT' as const };
    // The swap's first write only: the old appointment ends naming its walk-in, then "the crash".
    const outcome = await lifecycle.attempt(replaced.id, {
      to: 'cancelled',
      initiator: 'kiosk',
      by: kioskActor,
      replacement: { id: walkInId, date: minutesFromNow(1), bookedBy: kioskActor },
    });
    expect('done' in outcome).toBe(true);
    expect(await repositories.appointments.findHeldBy(patient.id)).toBeUndefined();

    // Two minutes later (past the grace a swap in flight gets), as two replicas would run it.
    const later2 = () => new Date(Date.now() + 2 * 60_000);
    const housekeeper = () =>
      new BookingService(
        repositories.appointments,
        repositories.transitions,
        new LifecycleService(repositories.appointments, repositories.transitions, later2),
        new PatientDirectory(
          { find: async () => undefined, save: async () => false },
          { fetch: async () => undefined },
        ),
        later2,
      );
    const [one, two] = await Promise.all([housekeeper().housekeeping(), housekeeper().housekeeping()]);
    expect(one.replaced + two.replaced).toBeGreaterThanOrEqual(1);
    const held = await repositories.appointments.findHeldBy(patient.id);
    expect(held).toMatchObject({ id: walkInId, status: 'booked', channel: 'kiosk', walkIn: true });
    expect(await service().models.Appointment.countDocuments({ appointmentId: walkInId })).toBe(1);
    expect((await housekeeper().housekeeping()).replaced).toBe(0);
  });
});

describe('an appointment ended before the relay published its booked event', () => {
  it('still announces the booking, then the cancellation (the final copy carries the pending event)', async () => {
    const patient = freshPatient();
    const events = await listenForMessages<{ data: { id: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.*.v1',
    );
    // Booked and cancelled while the relay is stopped: the active document, with the booked event
    // still in its outbox, is deleted by the cancellation.
    await service().relay.stop();
    let id: string;
    try {
      id = (await walkIn(patient)).id;
      expect((await stack.api.delete(`/dates/cancel/${id}`, staff.DOCTOR)).status).toBe(200);
    } finally {
      service().relay.start();
    }
    try {
      await events.waitFor((m) => m.routingKey.endsWith('.cancelled.v1') && m.body.data.id === id);
      const mine = events.received.filter((m) => m.body.data.id === id).map((m) => m.routingKey);
      expect(mine).toEqual(['appointments.appointment.booked.v1', 'appointments.appointment.cancelled.v1']);
    } finally {
      await events.close();
    }
  });
});
