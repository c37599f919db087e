import { listenForMessages } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { appointmentsStackReady, createPatients, staffTokens, type TestPatient } from './support/people';

const SLOT_TAKEN = 'Ese horario ya no está disponible';
const ALREADY_BOOKED = 'Ya tienes una cita reservada';
const ROUNDS = 10;
const CONTENDERS = 50;

let stack: Stack;
let patients: TestPatient[];
let booked: Awaited<ReturnType<typeof listenForMessages<{ data: { id: string; date: string } }>>>;
const slots = slotAllocator(5);
const models = () => (stack.components.appointments!.handle as AppointmentsService).models;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'] });
  await appointmentsStackReady(stack);
  booked = await listenForMessages(stack.amqpUrl, stack.exchange, 'appointments.appointment.booked.v1');
  const doctor = (await staffTokens(stack)).DOCTOR;
  patients = await createPatients(stack, doctor, CONTENDERS, 'race');
}, 60_000);
afterAll(async () => {
  await booked?.close();
  await stack?.stop();
});

const book = (patient: TestPatient, date: string) => stack.api.post('/dates', { date }, patient.token);

describe('no double booking under parallel requests', () => {
  it(`gives a slot to exactly one of ${CONTENDERS} patients booking it at once, ${ROUNDS} times over`, async () => {
    const winners: Array<{ patient: TestPatient; date: string; id: string }> = [];

    for (let round = 0; round < ROUNDS; round++) {
      const date = slots.next();
      const responses = await Promise.all(patients.map((patient) => book(patient, date)));

      const won = responses.flatMap((response, i) =>
        response.status === 201 ? [{ patient: patients[i]!, response }] : [],
      );
      expect(won).toHaveLength(1);
      expect(responses.filter((r) => r.status === 409)).toHaveLength(CONTENDERS - 1);
      const holders = new Set(winners.map((w) => w.patient.id));
      responses.forEach((response, i) => {
        if (response.status !== 409) return;
        // A patient holding nothing lost on the slot; earlier winners may be told either truth.
        const expected = holders.has(patients[i]!.id) ? [SLOT_TAKEN, ALREADY_BOOKED] : [SLOT_TAKEN];
        expect(expected).toContain(response.body.errors[0].message);
        expect(response.body.message).toBe(response.body.errors[0].message);
      });
      expect(await models().Appointment.countDocuments({ date: new Date(date) })).toBe(1);
      winners.push({ patient: won[0]!.patient, date, id: won[0]!.response.body.id });
    }

    // One booked event per slot, and one confirmation e-mail (with its calendar file) per winner.
    await booked.waitFor(() => booked.received.length >= ROUNDS, 15_000);
    for (const { patient } of winners) await stack.mail.waitForMessagesTo(patient.email, 1);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const { patient, date, id } of winners) {
      expect(booked.received.filter((m) => m.body.data.date === date).map((m) => m.body.data.id)).toEqual([
        id,
      ]);
      const mails = await stack.mail.messagesTo(patient.email);
      expect(mails).toHaveLength(1);
      const mail = await stack.mail.message(mails[0]!.ID);
      expect(mail.Attachments.map((a) => a.FileName)).toEqual(['cita.ics']);
    }
    expect(booked.received).toHaveLength(ROUNDS);
    // 10 rounds of 50 parallel bookings: about 12 s on 2 cores, more while other suites run.
  }, 90_000);

  it('gives one patient exactly one of 20 different slots booked at once', async () => {
    const [patient] = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 1, 'greedy');
    const dates = Array.from({ length: 20 }, () => slots.next());
    const responses = await Promise.all(dates.map((date) => book(patient!, date)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = responses.filter((r) => r.status === 409);
    expect(refused).toHaveLength(19);
    expect(refused.every((r) => r.body.errors[0].message === ALREADY_BOOKED)).toBe(true);
    expect(await models().Appointment.countDocuments({ pacientId: patient!.id })).toBe(1);
  });

  it('lets exactly one patient take a slot freed by a cancellation while others race for it', async () => {
    const [owner, ...others] = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 21, 'rebook');
    const date = slots.next();
    expect((await book(owner!, date)).status).toBe(201);
    expect((await stack.api.delete(`/dates/${encodeURIComponent(date)}`, owner!.token)).status).toBe(200);

    const responses = await Promise.all(others.map((patient) => book(patient, date)));
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    expect(await models().Appointment.countDocuments({ date: new Date(date), status: 'booked' })).toBe(1);
  });

  it('cancels an appointment once when the patient, a doctor and an admin end it at the same time', async () => {
    const [patient] = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 1, 'ended');
    const staff = await staffTokens(stack);
    const date = slots.next();
    const { body } = await book(patient!, date);
    const cancelled = listenForMessages<{ data: { id: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.*.v1',
    );
    const listener = await cancelled;

    const responses = await Promise.all([
      stack.api.delete(`/dates/${encodeURIComponent(date)}`, patient!.token),
      stack.api.delete(`/dates/cancel/${body.id}`, staff.DOCTOR),
      stack.api.delete(`/dates/delete/${body.id}`, staff.ADMIN),
      stack.api.delete(`/dates/cancel/${body.id}`, staff.ADMIN),
    ]);
    expect(responses.filter((r) => r.status === 200)).toHaveLength(1);
    expect(responses.filter((r) => r.status !== 200).every((r) => r.status === 409 || r.status === 404)).toBe(
      true,
    );

    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(listener.received.filter((m) => m.body.data.id === body.id)).toHaveLength(1);
    await listener.close();
    const history = await stack.api.get(`/dates/history/userid/${patient!.id}`, staff.DOCTOR);
    expect(history.body.appointments).toHaveLength(1);
    expect(['cancelled', 'deleted']).toContain(history.body.appointments[0].status);
  });
});
