import { CENTRE_PROFILE_SEED, type CentreProfileBody } from '@crm/contracts';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { createPatients, staffTokens } from './support/people';

/**
 * The slot hold's own timer, on the real clock: with `PAYMENT_HOLD_MINUTES` = 0.05 (3 s) and a sweep
 * every 500 ms, an unpaid web booking under `payments.online = required` is released by itself a few
 * seconds later (the hold, plus the 5 s a payment finishing at its end is given).
 */
jest.setTimeout(90_000);

let stack: Stack;
const slots = slotAllocator(13);
const service = () => stack.components.appointments!.handle as AppointmentsService;

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'config', 'appointments'],
    env: { PAYMENT_HOLD_MINUTES: '0.05', PAYMENT_HOLD_SWEEP_INTERVAL_MS: '500' },
  });
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});

it('releases an unpaid web booking by itself once its hold is over', async () => {
  const staff = await staffTokens(stack);
  const [patient] = await createPatients(stack, staff.DOCTOR, 1, 'holdtimer');
  const required: CentreProfileBody = {
    ...CENTRE_PROFILE_SEED,
    payments: { online: 'required', vatRatePercent: 0, exemptionText: 'Exenta' },
  };
  expect((await stack.api.put('/config/centre', required, staff.ADMIN)).status).toBe(200);
  for (let i = 0; (await service().paymentHold.dueByForNewBooking()) === undefined; i++) {
    if (i > 200) throw new Error('the appointments service did not learn that payment is required');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const booked = await stack.api.post('/dates', { date: slots.next() }, patient!.token);
  expect(booked.status).toBe(201);
  const dueBy = Date.parse(booked.body.paymentDueBy as string);
  expect(dueBy - Date.now()).toBeLessThanOrEqual(3_000);
  const id = booked.body.id as string;

  // Not before the hold (and its grace) is over…
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueBy - Date.now() - 500)));
  expect((await service().repositories.appointments.findById(id))?.status).toBe('booked');
  // …and by itself soon after.
  const deadline = Date.now() + 20_000;
  while ((await service().repositories.appointments.findById(id))?.status !== 'cancelled') {
    if (Date.now() > deadline) throw new Error('the unpaid booking was not released');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(Date.now()).toBeGreaterThanOrEqual(dueBy + 5_000);
  expect((await stack.api.get('/dates/currentDate', patient!.token)).body).toEqual({ date: null });
});
