import { appointmentCancelled, paymentSucceeded, refundIssued } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { listenForMessages, publishEnvelopes, redsysSignature, type RedsysSimulator } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  createPatients,
  staffTokens,
  type StaffTokens,
  type TestPatient,
} from '../../appointments/test/support/people';
import type { PaymentsApp } from '../src/app';

/**
 * Payments through the gateway with the Redsys simulator (docs/product/payments.md): the signature
 * round trip, tampered and repeated notifications, desk payments, refunds exactly once, invoices.
 */
jest.setTimeout(60_000);

let stack: Stack;
let redsys: RedsysSimulator;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(4);
const service = () => stack.components.payments!.handle as PaymentsApp;

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'config', 'appointments', 'payments'],
    env: { REFUND_RETRY_BASE_MS: '200', PAYMENTS_SWEEP_MS: '250' },
  });
  redsys = stack.redsys!;
  staff = await staffTokens(stack);
  patients = await createPatients(stack, staff.DOCTOR, 10, 'pay');
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

/** Books a slot for the patient and waits until the payments service has learnt of it. */
async function book(patient: TestPatient): Promise<string> {
  const booked = await stack.api.post('/dates', { date: slots.next() }, patient.token);
  expect(booked.status).toBe(201);
  const id = booked.body.id as string;
  await eventually(async () => (await service().models.Appointment.exists({ _id: id })) !== null);
  return id;
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const stateOf = async (appointmentId: string, token = staff.ADMIN) =>
  (await stack.api.get(`/payments/appointment/${appointmentId}`, token)).body;

const orderOf = (form: { Ds_MerchantParameters: string }) =>
  (JSON.parse(Buffer.from(form.Ds_MerchantParameters, 'base64').toString()) as Record<string, string>)
    .DS_MERCHANT_ORDER!;

/** A notification signed with `key`, as Redsys would post it. */
function notification(
  order: string,
  amountCents: number,
  key = stack.env.REDSYS_SECRET_KEY!,
  response = '0000',
) {
  const params = Buffer.from(
    JSON.stringify({
      Ds_Amount: String(amountCents),
      Ds_Currency: '978',
      Ds_Order: order,
      Ds_MerchantCode: stack.env.REDSYS_MERCHANT_CODE,
      Ds_Terminal: '1',
      Ds_Response: response,
      Ds_TransactionType: '0',
      Ds_Date: '01%2F01%2F2030',
      Ds_Hour: '10%3A00',
    }),
  ).toString('base64');
  return {
    Ds_SignatureVersion: 'HMAC_SHA256_V1',
    Ds_MerchantParameters: params,
    Ds_Signature: redsysSignature(key, order, params).toString('base64url'),
  };
}

const postForm = (fields: Record<string, string>) =>
  fetch(`${stack.gatewayUrl}/api/v1/payments/notify`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

describe('online payment with the Redsys simulator', () => {
  it('signs the form so the simulator (its own crypto) accepts it, is notified, and shows paid with an invoice', async () => {
    const [patient] = patients;
    const appointmentId = await book(patient!);
    expect(await stateOf(appointmentId, patient!.token)).toMatchObject({
      status: 'unpaid',
      amountCents: 1900,
      payments: [],
      invoices: [],
    });
    const succeeded = await listenForMessages<{ data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      paymentSucceeded.name,
    );

    const form = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    expect(form.status).toBe(200);
    expect(form.body).toEqual({
      url: `${redsys.url}/sis/realizarPago`,
      Ds_SignatureVersion: 'HMAC_SHA256_V1',
      Ds_MerchantParameters: expect.any(String),
      Ds_Signature: expect.any(String),
    });
    expect(await stateOf(appointmentId)).toMatchObject({ status: 'pending' });

    const back = await redsys.pay(form.body, 'card');
    expect(back).toMatchObject({ status: 303, location: `${stack.gatewayUrl}/user?payment=ok` });
    expect(redsys.refusedSignatures).toBe(0);
    expect(redsys.orders.get(orderOf(form.body))!.notifications).toEqual([{ status: 200, outcome: 'card' }]);

    const state = await stateOf(appointmentId, patient!.token);
    expect(state).toMatchObject({ status: 'paid', amountCents: 1900, currency: 'EUR' });
    expect(state.payments).toEqual([
      expect.objectContaining({ provider: 'redsys', method: 'card', amountCents: 1900, status: 'succeeded' }),
    ]);
    expect(state.invoices).toEqual([
      {
        number: expect.stringMatching(/^F\d{4}-\d{6}$/),
        kind: 'invoice',
        totalCents: 1900,
        pdfUrl: expect.stringMatching(/^\/api\/v1\/payments\/invoices\/F\d{4}-\d{6}\/pdf$/),
      },
    ]);
    await eventually(async () => succeeded.received.length === 1, 60_000);
    expect(succeeded.received[0]!.body.data).toMatchObject({
      appointmentId,
      pacientId: patient!.id,
      amountCents: 1900,
      provider: 'redsys',
    });
    await succeeded.close();

    const pdf = await fetch(`${stack.gatewayUrl}${state.invoices[0].pdfUrl}`, {
      headers: { Authorization: `Bearer ${patient!.token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const stranger = await fetch(`${stack.gatewayUrl}${state.invoices[0].pdfUrl}`, {
      headers: { Authorization: `Bearer ${patients[1]!.token}` },
    });
    expect(stranger.status).toBe(403);

    // Paid: no second checkout.
    expect((await stack.api.post('/payments/checkout', { appointmentId }, patient!.token)).status).toBe(409);
  });

  it('gives two clicks the same order; a denied card leaves it unpaid and a new try gets a new order; Bizum pays', async () => {
    const [, patient] = patients;
    const appointmentId = await book(patient!);
    const [a, b] = await Promise.all([
      stack.api.post('/payments/checkout', { appointmentId }, patient!.token),
      stack.api.post('/payments/checkout', { appointmentId }, patient!.token),
    ]);
    expect(orderOf(a.body)).toBe(orderOf(b.body));

    expect(await redsys.pay(a.body, 'denied')).toMatchObject({
      status: 303,
      location: `${stack.gatewayUrl}/user?payment=ko`,
    });
    const denied = await stateOf(appointmentId);
    expect(denied.status).toBe('unpaid');
    expect(denied.payments).toEqual([expect.objectContaining({ status: 'failed' })]);

    const again = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    expect(orderOf(again.body)).not.toBe(orderOf(a.body));
    expect(await redsys.pay(again.body, 'bizum')).toMatchObject({
      location: `${stack.gatewayUrl}/user?payment=ok`,
    });
    const paid = await stateOf(appointmentId);
    expect(paid.status).toBe('paid');
    expect(paid.payments[1]).toMatchObject({ method: 'bizum', status: 'succeeded' });
  });

  it('leaves an abandoned payment pending and sends the patient back to the KO page', async () => {
    const [, , patient] = patients;
    const appointmentId = await book(patient!);
    const form = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    expect(await redsys.pay(form.body, 'abandon')).toMatchObject({
      location: `${stack.gatewayUrl}/user?payment=ko`,
    });
    expect(redsys.orders.get(orderOf(form.body))!.notifications).toEqual([]);
    expect((await stateOf(appointmentId)).status).toBe('pending');
  });

  it('refuses a tampered or wrongly signed notification and changes nothing; a repeated one makes one payment', async () => {
    const [, , , patient] = patients;
    const appointmentId = await book(patient!);
    const form = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    const order = orderOf(form.body);

    // The amount changed after signing.
    const genuine = notification(order, 1900);
    const tampered = { ...genuine, Ds_MerchantParameters: notification(order, 1).Ds_MerchantParameters };
    expect((await postForm(tampered)).status).toBe(400);
    // Signed with the published test key instead of the terminal's.
    expect((await postForm(notification(order, 1900, 'sq7HjrUOBfKmC576ILgskD5srU870gJ7'))).status).toBe(400);
    const untouched = await stateOf(appointmentId);
    expect(untouched.status).toBe('pending');
    expect(untouched.invoices).toEqual([]);

    const answers = await Promise.all([postForm(genuine), postForm(genuine), postForm(genuine)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect((await postForm(genuine)).status).toBe(200);
    const paid = await stateOf(appointmentId);
    expect(paid.status).toBe('paid');
    expect(paid.payments.filter((p: { status: string }) => p.status === 'succeeded')).toHaveLength(1);
    expect(paid.invoices).toHaveLength(1);
  });

  it('checks the caller: another patient neither sees nor pays the appointment; bad bodies are 400', async () => {
    const [, , , , owner, other] = patients;
    const appointmentId = await book(owner!);
    expect((await stack.api.get(`/payments/appointment/${appointmentId}`, other!.token)).status).toBe(403);
    expect((await stack.api.post('/payments/checkout', { appointmentId }, other!.token)).status).toBe(403);
    expect((await stack.api.get(`/payments/appointment/${appointmentId}`, staff.DOCTOR)).status).toBe(200);
    const bad = await stack.api.post('/payments/checkout', { appointmentId: 'x' }, owner!.token);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errors: [expect.objectContaining({ field: 'appointmentId' })] });
    expect(
      (
        await stack.api.post(
          '/payments/desk',
          { appointmentId, method: 'cheque', amountCents: 100 },
          staff.DOCTOR,
        )
      ).body,
    ).toMatchObject({ errors: [expect.objectContaining({ field: 'method' })] });
    expect(
      (
        await stack.api.post(
          '/payments/desk',
          { appointmentId, method: 'cash', amountCents: 19.5 },
          staff.DOCTOR,
        )
      ).body,
    ).toMatchObject({ errors: [expect.objectContaining({ field: 'amountCents' })] });
    expect((await postForm({ Ds_SignatureVersion: 'HMAC_SHA256_V1' })).status).toBe(400);
  });
});

describe('refunds', () => {
  it('refunds a patient cancellation inside the policy exactly once, although the first answer is lost', async () => {
    const [, , , , , , patient] = patients;
    const booked = await stack.api.post('/dates', { date: slots.next() }, patient!.token);
    const appointmentId = booked.body.id as string;
    await eventually(
      async () => (await service().models.Appointment.exists({ _id: appointmentId })) !== null,
    );
    const form = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    await redsys.pay(form.body, 'card');
    const refunds = await listenForMessages<{ data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      refundIssued.name,
    );

    redsys.loseRefundAnswers(1);
    const cancelled = await stack.api.delete(
      `/dates/${encodeURIComponent(booked.body.date)}`,
      patient!.token,
    );
    expect(cancelled.body).toMatchObject({ status: 'cancelled', refundable: true });
    await eventually(async () => (await stateOf(appointmentId)).status === 'refunded');
    // The same cancellation delivered again refunds nothing more.
    await publishEnvelopes(stack.busUrl, stack.exchange, [
      createEnvelope(
        appointmentCancelled,
        {
          id: appointmentId,
          date: booked.body.date,
          pacientId: patient!.id,
          user: { id: patient!.id, name: patient!.name, email: patient!.email },
          channel: 'patient',
          by: { id: patient!.id, rol: 'PACIENT' },
          refundable: true,
        },
        'test',
      ),
    ]);
    await refunds.waitFor();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(redsys.orders.get(orderOf(form.body))!.refundsCents).toEqual([1900]);
    expect(refunds.received.map((m) => m.body.data)).toEqual([
      expect.objectContaining({ appointmentId, refundCents: 1900, cause: 'cancellation' }),
    ]);
    await refunds.close();
    const state = await stateOf(appointmentId);
    expect(state.invoices.map((i: { kind: string; totalCents: number }) => [i.kind, i.totalCents])).toEqual([
      ['invoice', 1900],
      ['rectifying', -1900],
    ]);
  });

  it('does not refund a late cancellation; an ADMIN refunds by hand with a reason, once', async () => {
    const [, , , , , , , patient] = patients;
    const appointmentId = await book(patient!);
    const form = await stack.api.post('/payments/checkout', { appointmentId }, patient!.token);
    await redsys.pay(form.body, 'card');
    const appointment = (await stack.api.get(`/dates/id/${appointmentId}`, staff.DOCTOR)).body;
    await publishEnvelopes(stack.busUrl, stack.exchange, [
      createEnvelope(
        appointmentCancelled,
        {
          id: appointmentId,
          date: appointment.date,
          pacientId: patient!.id,
          user: { id: patient!.id, name: patient!.name, email: patient!.email },
          channel: 'patient',
          by: { id: patient!.id, rol: 'PACIENT' },
          refundable: false,
        },
        'test',
      ),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(redsys.orders.get(orderOf(form.body))!.refundsCents).toEqual([]);
    const state = await stateOf(appointmentId);
    expect(state.status).toBe('paid');

    const paymentId = state.payments[0].id as string;
    expect(
      (await stack.api.post(`/payments/${paymentId}/refund`, { reason: 'Error de cobro' }, staff.DOCTOR))
        .status,
    ).toBe(403);
    expect((await stack.api.post(`/payments/${paymentId}/refund`, {}, staff.ADMIN)).body).toMatchObject({
      errors: [expect.objectContaining({ field: 'reason' })],
    });
    const refunded = await stack.api.post(
      `/payments/${paymentId}/refund`,
      { reason: 'Error de cobro' },
      staff.ADMIN,
    );
    expect(refunded.status).toBe(200);
    expect(refunded.body).toMatchObject({
      status: 'refunded',
      refund: { status: 'confirmed', reason: 'Error de cobro', amountCents: 1900 },
    });
    expect(
      (await stack.api.post(`/payments/${paymentId}/refund`, { reason: 'Otra vez' }, staff.ADMIN)).status,
    ).toBe(409);
    expect(redsys.orders.get(orderOf(form.body))!.refundsCents).toEqual([1900]);
  });
});

describe('desk payments and invoices', () => {
  it('records a desk payment once per double click and shows it paid', async () => {
    const patient = patients[8];
    const appointmentId = await book(patient!);
    const first = await stack.api.post(
      '/payments/desk',
      { appointmentId, method: 'cash', amountCents: 1900 },
      staff.DOCTOR,
    );
    expect(first.status).toBe(201);
    const second = await stack.api.post(
      '/payments/desk',
      { appointmentId, method: 'cash', amountCents: 1900 },
      staff.DOCTOR,
    );
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(
      (
        await stack.api.post(
          '/payments/desk',
          { appointmentId, method: 'cash', amountCents: 1900 },
          patient!.token,
        )
      ).status,
    ).toBe(403);
    const state = await stateOf(appointmentId, patient!.token);
    expect(state).toMatchObject({ status: 'paid' });
    expect(state.payments).toHaveLength(1);
  });

  it('numbers 50 concurrent invoices without gaps or duplicates, and the chain check finds an edited record', async () => {
    const patient = patients[9];
    const appointmentId = await book(patient!);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        stack.api.post(
          '/payments/desk',
          { appointmentId, method: 'card', amountCents: 100 + i },
          i % 2 ? staff.DOCTOR : staff.ADMIN,
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    await eventually(async () => (await stateOf(appointmentId)).invoices.length === 50, 90_000);
    const all = (await service().models.Invoice.find({ series: 'F' }).sort({ seq: 1 }).lean()) as unknown as {
      seq: number;
      _id: string;
    }[];
    expect(all.map((invoice) => invoice.seq)).toEqual(Array.from({ length: all.length }, (_, i) => i + 1));
    expect(new Set(all.map((invoice) => invoice._id)).size).toBe(all.length);

    const verified = await stack.api.get('/payments/invoices/verify', staff.ADMIN);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ ok: true });
    expect((await stack.api.get('/payments/invoices/verify', staff.DOCTOR)).status).toBe(403);

    const victim = all[20]!;
    await service().models.Invoice.collection.updateOne({ _id: victim._id } as never, {
      $set: { 'record.totalCents': 1 },
    });
    const broken = await stack.api.get('/payments/invoices/verify', staff.ADMIN);
    expect(broken.body).toMatchObject({ ok: false, firstBroken: { number: victim._id, reason: 'hash' } });
  });
});
