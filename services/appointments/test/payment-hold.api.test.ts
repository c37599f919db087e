import moment from 'moment-timezone';
import {
  appointmentCancelled,
  CENTRE_PROFILE_SEED,
  CENTRE_TIME_ZONE,
  refundIssued,
  type CentreProfileBody,
} from '@crm/contracts';
import { listenForMessages, type RedsysSimulator } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { PaymentsApp } from '../../payments/src/app';
import type { AppointmentsService } from '../src/app';
import { createPatients, staffTokens, type StaffTokens, type TestPatient } from './support/people';

/**
 * The slot hold of an unpaid booking (docs/product/payments.md#slot-hold), with the centre profile's
 * `payments.online = required`: a patient's web booking is held `PAYMENT_HOLD_MINUTES` (15); unpaid,
 * the sweep releases it and the waiting list gets the slot; paid in time (through the Redsys
 * simulator), it stays; a staff booking is never held; a payment after the release is given back.
 * The sweep runs on a clock moved past the hold (the service's own timer is idle here).
 */
jest.setTimeout(90_000);

let stack: Stack;
let redsys: RedsysSimulator;
let staff: StaffTokens;
let patients: TestPatient[];
let next = 0;
const patient = () => patients[next++]!;
const dayOf = (instant: string) => moment.tz(instant, CENTRE_TIME_ZONE).format('YYYY-MM-DD');
const allSlots = slotAllocator(11);
const usedDays = new Set<string>();
/** A slot of a day no other test here uses (each day has its own waiting line). */
function slotOfFreshDay(): string {
  for (;;) {
    const slot = allSlots.next();
    if (usedDays.has(dayOf(slot))) continue;
    usedDays.add(dayOf(slot));
    return slot;
  }
}
const service = () => stack.components.appointments!.handle as AppointmentsService;
const payments = () => stack.components.payments!.handle as PaymentsApp;
/** The hold's sweep as it will run `minutes` from now. */
const sweepIn = (minutes: number) =>
  service()
    .paymentHoldAt(() => new Date(Date.now() + minutes * 60_000))
    .sweep();
const statusOf = async (id: string) => (await service().repositories.appointments.findById(id))?.status;

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'config', 'appointments', 'payments'],
    // Only the test's own sweeps, on a clock moved past the hold.
    env: { PAYMENT_HOLD_SWEEP_INTERVAL_MS: String(3_600_000), PAYMENTS_SWEEP_MS: '250' },
  });
  redsys = stack.redsys!;
  staff = await staffTokens(stack);
  patients = await createPatients(stack, staff.DOCTOR, 14, 'hold');
  const required: CentreProfileBody = {
    ...CENTRE_PROFILE_SEED,
    payments: { online: 'required', vatRatePercent: 0, exemptionText: 'Exenta' },
  };
  expect((await stack.api.put('/config/centre', required, staff.ADMIN)).status).toBe(200);
  // The appointments service hears config.centre.updated.v1 and reads the profile again.
  await eventually(async () => (await service().paymentHold.dueByForNewBooking()) !== undefined);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

async function book(who: TestPatient, date: string) {
  const response = await stack.api.post('/dates', { date }, who.token);
  expect(response.status).toBe(201);
  return response.body as { id: string; date: string; paymentDueBy?: string };
}

/** Pays the appointment online through the simulator (the payments service learns of it first). */
async function payOnline(who: TestPatient, appointmentId: string) {
  await eventually(async () => (await payments().models.Appointment.exists({ _id: appointmentId })) !== null);
  const form = await stack.api.post('/payments/checkout', { appointmentId }, who.token);
  expect(form.status).toBe(200);
  return form.body;
}

it('holds an unpaid web booking for 15 minutes, then releases it and offers the slot to the waiting list', async () => {
  const [holder, waiting] = [patient(), patient()];
  const slot = slotOfFreshDay();
  const before = Date.now();
  const booked = await book(holder, slot);
  const dueBy = Date.parse(booked.paymentDueBy!);
  expect(dueBy).toBeGreaterThanOrEqual(before + 15 * 60_000);
  expect(dueBy).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
  expect((await stack.api.get('/dates/currentDate', holder.token)).body).toMatchObject({
    id: booked.id,
    paymentDueBy: booked.paymentDueBy,
  });
  expect((await stack.api.post('/dates/waitlist', { day: dayOf(slot) }, waiting.token)).status).toBe(201);
  const cancelled = await listenForMessages<{ data: { id: string; endedBecause?: string; by?: unknown } }>(
    stack.amqpUrl,
    stack.exchange,
    appointmentCancelled.name,
  );

  // Still inside the hold: kept.
  await sweepIn(14);
  expect(await statusOf(booked.id)).toBe('booked');

  // Past it: released (two replicas sweeping at once release it once).
  const counts = await Promise.all([sweepIn(16), sweepIn(16)]);
  expect(counts[0]! + counts[1]!).toBeGreaterThanOrEqual(1);
  expect(await statusOf(booked.id)).toBe('cancelled');
  const event = await cancelled.waitFor((m) => m.body.data.id === booked.id);
  expect(event.body.data.endedBecause).toBe('unpaid');
  expect(event.body.data.by).toBeUndefined();
  await cancelled.close();
  expect((await stack.api.get('/dates/currentDate', holder.token)).body).toEqual({ date: null });

  // The freed slot is held for the first of the day's waiting line, as after any cancellation.
  await eventually(async () => {
    const entries = (await stack.api.get('/dates/waitlist', waiting.token)).body.entries as Array<{
      offer?: { date: string };
    }>;
    return entries.some((entry) => entry.offer?.date === slot);
  });
});

it('keeps a booking paid within the hold (the payment event reaches the appointments service)', async () => {
  const who = patient();
  const booked = await book(who, slotOfFreshDay());
  const form = await payOnline(who, booked.id);
  expect(await redsys.pay(form, 'card')).toMatchObject({ status: 303 });
  // Paid: the patient area no longer asks to pay by a time.
  await eventually(
    async () => (await stack.api.get('/dates/currentDate', who.token)).body.paymentDueBy === undefined,
  );
  await sweepIn(16);
  expect(await statusOf(booked.id)).toBe('booked');
  expect((await stack.api.get(`/payments/appointment/${booked.id}`, who.token)).body.status).toBe('paid');
});

it('leaves paid holds out of the due ones, so they never hide an unpaid one (a page of one)', async () => {
  const [first, second] = [patient(), patient()];
  const paid = await book(first, slotOfFreshDay());
  const unpaid = await book(second, slotOfFreshDay());
  await service().paymentHold.paid(paid.id);
  const in16 = new Date(Date.now() + 16 * 60_000);
  expect((await service().paymentHolds.due(in16, 1)).map((a) => a.id)).toEqual([unpaid.id]);
  await sweepIn(16);
  expect(await statusOf(paid.id)).toBe('booked');
  expect(await statusOf(unpaid.id)).toBe('cancelled');
});

it('never holds a booking made by staff', async () => {
  const who = patient();
  const response = await stack.api.post(
    '/dates/admin',
    { date: slotOfFreshDay(), pacientId: who.id },
    staff.DOCTOR,
  );
  expect(response.status).toBe(201);
  expect(response.body.paymentDueBy).toBeUndefined();
  expect((await stack.api.get('/dates/currentDate', who.token)).body.paymentDueBy).toBeUndefined();
  await sweepIn(16);
  expect(await statusOf(response.body.id)).toBe('booked');
});

it('gives back a payment that arrives after the release, and the appointment stays released', async () => {
  const who = patient();
  const booked = await book(who, slotOfFreshDay());
  const form = await payOnline(who, booked.id);
  const refunds = await listenForMessages<{ data: { appointmentId: string; cause: string } }>(
    stack.amqpUrl,
    stack.exchange,
    refundIssued.name,
  );
  await sweepIn(16);
  expect(await statusOf(booked.id)).toBe('cancelled');
  // The patient finishes paying on the gateway's page after the slot was freed.
  expect(await redsys.pay(form, 'card')).toMatchObject({ status: 303 });
  const refund = await refunds.waitFor((m) => m.body.data.appointmentId === booked.id);
  expect(refund.body.data.cause).toBe('holdExpired');
  await refunds.close();
  await eventually(
    async () =>
      (await stack.api.get(`/payments/appointment/${booked.id}`, staff.ADMIN)).body.status === 'refunded',
  );
  expect(await statusOf(booked.id)).toBe('cancelled');
  expect((await stack.api.get('/dates/currentDate', who.token)).body).toEqual({ date: null });
});

it('carries the payment to the new appointment of a reschedule (paid there, nothing refunded)', async () => {
  const who = patient();
  const booked = await book(who, slotOfFreshDay());
  const form = await payOnline(who, booked.id);
  expect(await redsys.pay(form, 'bizum')).toMatchObject({ status: 303 });
  await eventually(
    async () => (await stack.api.get(`/payments/appointment/${booked.id}`, who.token)).body.status === 'paid',
  );
  const refunds = await listenForMessages<{ data: { appointmentId: string } }>(
    stack.amqpUrl,
    stack.exchange,
    refundIssued.name,
  );

  const moved = await stack.api.post('/dates/reschedule', { date: slotOfFreshDay() }, who.token);
  expect(moved.status).toBe(200);
  const newId = moved.body.id as string;
  expect(newId).not.toBe(booked.id);
  expect(await statusOf(booked.id)).toBe('cancelled');
  await eventually(async () => {
    const state = (await stack.api.get(`/payments/appointment/${newId}`, who.token)).body;
    return state.status === 'paid';
  });
  const state = (await stack.api.get(`/payments/appointment/${newId}`, staff.DOCTOR)).body;
  expect(state.payments).toEqual([expect.objectContaining({ status: 'succeeded', method: 'bizum' })]);
  expect(state.invoices).toHaveLength(1);
  // Paid: no second checkout, and the hold of the moved appointment is over.
  expect((await stack.api.post('/payments/checkout', { appointmentId: newId }, who.token)).status).toBe(409);
  await sweepIn(16);
  expect(await statusOf(newId)).toBe('booked');

  // A move made by staff carries it too.
  const again = await stack.api.post(`/dates/reschedule/${newId}`, { date: slotOfFreshDay() }, staff.ADMIN);
  expect(again.status).toBe(200);
  await eventually(
    async () =>
      (await stack.api.get(`/payments/appointment/${again.body.id}`, staff.ADMIN)).body.status === 'paid',
  );
  await new Promise((resolve) => setTimeout(resolve, 1000));
  expect(refunds.received).toHaveLength(0);
  await refunds.close();
});

it('keeps the hold of an unpaid appointment when it is moved, with the same end', async () => {
  const who = patient();
  const booked = await book(who, slotOfFreshDay());
  const moved = await stack.api.post('/dates/reschedule', { date: slotOfFreshDay() }, who.token);
  expect(moved.status).toBe(200);
  expect((await stack.api.get('/dates/currentDate', who.token)).body.paymentDueBy).toBe(booked.paymentDueBy);
  await sweepIn(16);
  expect(await statusOf(moved.body.id)).toBe('cancelled');
});

describe('GET /payments/appointments?ids= (the back office lists: one call for the page)', () => {
  it('answers each appointment’s state in the order asked, the moved ones with their payments', async () => {
    const [payer, unpaid] = [patient(), patient()];
    const paid = await book(payer, slotOfFreshDay());
    const form = await payOnline(payer, paid.id);
    expect(await redsys.pay(form, 'card')).toMatchObject({ status: 303 });
    const open = await book(unpaid, slotOfFreshDay());
    const unknown = '0123456789abcdef01234567';
    await eventually(
      async () =>
        (await stack.api.get(`/payments/appointment/${paid.id}`, staff.ADMIN)).body.status === 'paid',
    );

    const answer = await stack.api.get(
      `/payments/appointments?ids=${open.id},${paid.id},${unknown},${paid.id}`,
      staff.DOCTOR,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      items: [
        { appointmentId: open.id, status: 'unpaid', amountCents: 1900, paidCents: 0 },
        { appointmentId: paid.id, status: 'paid', amountCents: 1900, paidCents: 1900 },
        { appointmentId: unknown, status: 'unpaid', amountCents: 1900, paidCents: 0 },
      ],
    });
  });

  it('is for doctors and admins only, and refuses a bad or too long list with field ids', async () => {
    const id = '0123456789abcdef01234567';
    expect((await stack.api.get(`/payments/appointments?ids=${id}`, patients[0]!.token)).status).toBe(403);
    expect((await stack.api.get(`/payments/appointments?ids=${id}`)).status).toBe(401);
    const many = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    for (const query of ['', '?ids=', '?ids=nope', `?ids=${id},x`, `?ids=${many}`]) {
      const response = await stack.api.get(`/payments/appointments${query}`, staff.ADMIN);
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.field ?? response.body.field).toBe('ids');
    }
    const hundred = Array.from({ length: 100 }, (_, i) => i.toString(16).padStart(24, '0')).join(',');
    const full = await stack.api.get(`/payments/appointments?ids=${hundred}`, staff.ADMIN);
    expect(full.status).toBe(200);
    expect(full.body.items).toHaveLength(100);
  });
});
