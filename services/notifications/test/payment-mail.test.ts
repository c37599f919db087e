import { invoiceIssued, type EventEnvelope } from '@crm/contracts';
import { listenForMessages, publishEnvelopes, waitForQueue, type CaughtMail } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  createPatients,
  staffTokens,
  type StaffTokens,
  type TestPatient,
} from '../../appointments/test/support/people';
import type { PaymentsApp } from '../../payments/src/app';
import { formatAppointmentDate } from '../src/mail/templates/appointment.templates';

/**
 * The invoice e-mails, on the real stack (auth, config, appointments, payments, the e-mail worker)
 * and the real Mailpit: a desk payment → "Pago recibido" with the invoice's PDF; the same event
 * delivered again → still one e-mail; an ADMIN's refund → "Devolución realizada" with the
 * rectifying invoice's PDF.
 */
jest.setTimeout(90_000);

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(15);
const payments = () => stack.components.payments!.handle as PaymentsApp;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'config', 'appointments', 'payments', 'notifications'] });
  staff = await staffTokens(stack);
  patients = await createPatients(stack, staff.DOCTOR, 2, 'factura');
  await waitForQueue(stack.amqpUrl, `${stack.env.QUEUE_PREFIX}.notifications.payment-mail`);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

async function until(check: () => Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Books a slot for the patient; resolves once the payments service knows the appointment. */
async function book(patient: TestPatient): Promise<{ id: string; date: string }> {
  const booked = await stack.api.post('/dates', { date: slots.next() }, patient.token);
  expect(booked.status).toBe(201);
  const id = booked.body.id as string;
  await until(async () => (await payments().models.Appointment.exists({ _id: id })) !== null);
  return { id, date: booked.body.date as string };
}

/** The e-mails with this subject prefix (booking confirmations also reach the patient). */
const withSubject = async (patient: TestPatient, prefix: string, count: number) => {
  let found: CaughtMail[] = [];
  await until(async () => {
    const all = await stack.mail.messagesTo(patient.email);
    const matching = all.filter((m) => m.Subject.startsWith(prefix));
    if (matching.length < count) return false;
    found = await Promise.all(matching.map((m) => stack.mail.message(m.ID)));
    return true;
  });
  return found;
};

async function pdfOf(mail: CaughtMail, fileName: string): Promise<Buffer> {
  const attachment = mail.Attachments.find((a) => a.FileName === fileName);
  expect(attachment).toMatchObject({ ContentType: 'application/pdf' });
  return stack.mail.attachmentBytes(mail.ID, attachment!.PartID);
}

it('mails the invoice PDF once for a desk payment, even when its event is delivered again, and the rectifying one for its refund', async () => {
  const [patient] = patients;
  const appointment = await book(patient!);
  const issued = await listenForMessages<EventEnvelope>(stack.amqpUrl, stack.exchange, invoiceIssued.name);

  const paid = await stack.api.post(
    '/payments/desk',
    { appointmentId: appointment.id, method: 'cash', amountCents: 1900 },
    staff.DOCTOR,
  );
  expect(paid.status).toBe(201);

  const [mail] = await withSubject(patient!, 'Pago recibido', 1);
  const number = /factura (F\d{4}-\d{6})/.exec(mail!.Subject)?.[1];
  expect(number).toBeDefined();
  const state = (await stack.api.get(`/payments/appointment/${appointment.id}`, staff.ADMIN)).body;
  expect(state.invoices).toEqual([expect.objectContaining({ number, kind: 'invoice', totalCents: 1900 })]);
  // Kept ready for the tax agency, not sent (VERIFACTU_MODE=off, the default).
  expect(await payments().models.Invoice.findById(number).lean()).toMatchObject({
    submission: { status: 'not-configured' },
  });
  for (const body of [mail!.Text, mail!.HTML]) {
    expect(body).toContain('19,00');
    expect(body).toContain('efectivo');
    expect(body).toContain(formatAppointmentDate(new Date(appointment.date)));
    expect(body).toContain(number);
  }
  const pdf = await pdfOf(mail!, `factura-${number}.pdf`);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.toString('latin1')).toContain(number);

  // The same event again (a relay that crashed after publishing, a redelivery): no second e-mail.
  await until(async () => issued.received.length >= 1);
  const envelope = issued.received[0]!.body;
  expect(envelope.data).toMatchObject({ number, kind: 'invoice' });
  await publishEnvelopes(stack.busUrl, stack.exchange, [envelope, envelope]);
  await new Promise((resolve) => setTimeout(resolve, 2500));
  expect(
    (await stack.mail.messagesTo(patient!.email)).filter((m) => m.Subject.startsWith('Pago recibido')),
  ).toHaveLength(1);

  // The ADMIN gives it back: the rectifying invoice, correcting the first.
  const paymentId = (paid.body as { id: string }).id;
  const refunded = await stack.api.post(
    `/payments/${paymentId}/refund`,
    { reason: 'Cobro duplicado' },
    staff.ADMIN,
  );
  expect(refunded.status).toBe(200);
  const [refundMail] = await withSubject(patient!, 'Devolución realizada', 1);
  const rectifying = /factura (R\d{4}-\d{6})/.exec(refundMail!.Subject)?.[1];
  expect(rectifying).toBeDefined();
  expect(refundMail!.Text).toContain(`corrige la factura ${number}`);
  expect(refundMail!.Text).toContain('19,00');
  const rectifyingPdf = await pdfOf(refundMail!, `factura-rectificativa-${rectifying}.pdf`);
  expect(rectifyingPdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(rectifyingPdf.toString('latin1')).toContain(rectifying);
  await issued.close();
});
