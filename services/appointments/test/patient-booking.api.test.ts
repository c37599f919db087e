import { isBookingCode } from '@crm/contracts';
import { listenForMessages } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { appointmentsStackReady, createPatients, staffTokens, type TestPatient } from './support/people';
import { canary, dstWeekdays, nextLocalDay } from './support/slots';

let stack: Stack;
let patients: TestPatient[];
let events: Awaited<ReturnType<typeof listenForMessages<{ data: Record<string, unknown> }>>>;
const slots = slotAllocator(3);
let nextPatient = 1;
/** A patient nobody in this file has used yet (each may hold only one active appointment); patients[0] never books. */
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'] });
  await appointmentsStackReady(stack);
  events = await listenForMessages<{ data: Record<string, unknown> }>(
    stack.amqpUrl,
    stack.exchange,
    'appointments.appointment.#',
  );
  patients = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 24, 'self');
});
afterAll(async () => {
  await events?.close();
  await stack?.stop();
});

const book = (patient: TestPatient, date: unknown) => stack.api.post('/dates', { date }, patient.token);

describe('a patient books for themself (POST /dates)', () => {
  it('books a free slot, shows it as the current appointment and publishes appointment booked', async () => {
    const patient = freshPatient();
    const date = slots.next();
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toEqual({ date: null });

    const response = await book(patient, date);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      date,
      name: patient.name,
      bookingCode: response.body.bookingCode,
    });
    expect(isBookingCode(response.body.bookingCode)).toBe(true);

    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toEqual({
      id: response.body.id,
      date,
      status: 'booked',
      bookingCode: response.body.bookingCode,
    });
    const event = await events.waitFor(
      (m) => m.routingKey === 'appointments.appointment.booked.v1' && m.body.data.id === response.body.id,
    );
    expect(event.body.data).toEqual({
      id: response.body.id,
      date,
      pacientId: patient.id,
      user: { id: patient.id, name: patient.name, email: patient.email, phone: patient.phone },
      channel: 'patient',
      by: { id: patient.id, rol: 'PACIENT' },
      bookingCode: response.body.bookingCode,
    });
  });

  it('e-mails the patient one Spanish confirmation with a calendar file for the appointment', async () => {
    const patient = freshPatient();
    const date = canary(`${nextLocalDay(1, 3)} 09:15`);
    const { body } = await book(patient, date);

    const [mail] = await stack.mail.waitForMessagesTo(patient.email, 1);
    expect(mail!.Subject).toMatch(/^Cita confirmada: lunes, \d{1,2} de [a-z]+ de \d{4}, 09:15$/);
    expect(mail!.HTML).toContain('Centro de Reconocimiento Médico');
    expect(mail!.Text).toContain('(hora de Canarias)');
    const attachment = mail!.Attachments.find((a) => a.FileName === 'cita.ics');
    expect(attachment?.ContentType).toContain('text/calendar');
    const ics = await stack.mail.attachment(mail!.ID, attachment!.PartID);
    expect(ics).toContain('\r\nMETHOD:PUBLISH\r\n');
    expect(ics).toContain(`\r\nUID:appointment-${body.id}@crm.events\r\n`);
    const start = date.replace(/[-:]/g, '').replace('.000', '');
    expect(ics).toContain(`\r\nDTSTART:${start}\r\n`);
    expect(ics.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stack.mail.messagesTo(patient.email)).toHaveLength(1);
  });

  it.each([
    ['12:45', 'Monday'],
    ['19:45', 'Monday'],
    ['17:00', 'Friday'],
  ])('accepts the slot %s on a %s', async (time, weekday) => {
    const day = nextLocalDay(weekday === 'Monday' ? 1 : 5, 4);
    const response = await book(freshPatient(), canary(`${day} ${time}`));
    expect(response.status).toBe(201);
  });

  it.each([
    [
      'a Saturday',
      () => canary(`${nextLocalDay(6)} 10:00`),
      'Solo se pueden reservar citas de lunes a viernes',
    ],
    [
      'a Sunday',
      () => canary(`${nextLocalDay(7)} 10:00`),
      'Solo se pueden reservar citas de lunes a viernes',
    ],
    [
      '13:00',
      () => canary(`${nextLocalDay(2)} 13:00`),
      'El horario de citas es de 9:00 a 13:00 y de 17:00 a 20:00',
    ],
    [
      '20:00',
      () => canary(`${nextLocalDay(2)} 20:00`),
      'El horario de citas es de 9:00 a 13:00 y de 17:00 a 20:00',
    ],
    [
      '10:07',
      () => canary(`${nextLocalDay(2)} 10:07`),
      'Las citas empiezan cada 15 minutos (en punto, y cuarto, y media o menos cuarto)',
    ],
    [
      '10:00:30',
      () => new Date(Date.parse(canary(`${nextLocalDay(2)} 10:00`)) + 30_000).toISOString(),
      'Las citas empiezan cada 15 minutos (en punto, y cuarto, y media o menos cuarto)',
    ],
    ['a past slot', () => canary('2025-11-24 10:00'), 'La fecha ya ha pasado'],
  ])('refuses %s with 400 and a Spanish error on the date field', async (_label, date, message) => {
    const response = await book(patients[0]!, date());
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message, errors: [{ message, field: 'date' }] });
  });

  describe('across daylight-saving changes (09:00 local is 09:00Z in winter, 08:00Z in summer)', () => {
    const { beforeSummer, inSummer, endOfSummer, inWinter } = dstWeekdays();
    it.each([
      [`${beforeSummer}T09:00:00.000Z`, 'the Friday before summer time, 09:00 local'],
      [`${inSummer}T08:00:00.000Z`, 'the Monday after summer time starts, 09:00 local'],
      [`${endOfSummer}T18:45:00.000Z`, 'the Friday before summer time ends, 19:45 local'],
      [`${inWinter}T09:00:00.000Z`, 'the Monday after summer time ends, 09:00 local'],
    ])('accepts %s (%s)', async (date) => {
      expect((await book(freshPatient(), date)).status).toBe(201);
    });

    it.each([
      [`${beforeSummer}T08:00:00.000Z`, '08:00 local in winter'],
      [`${inSummer}T12:00:00.000Z`, '13:00 local in summer'],
      [`${inWinter}T08:00:00.000Z`, '08:00 local in winter'],
      [`${endOfSummer}T19:00:00.000Z`, '20:00 local in summer'],
    ])('refuses %s (%s)', async (date) => {
      const response = await book(patients[0]!, date);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({
        field: 'date',
        message: 'El horario de citas es de 9:00 a 13:00 y de 17:00 a 20:00',
      });
    });
  });

  it.each([
    ['no date', {}, 'La fecha es obligatoria'],
    ['a number', { date: 1795322622673 }, 'La fecha no es válida'],
    ['an array', { date: ['2026-11-23T09:00:00Z'] }, 'La fecha no es válida'],
    ['null', { date: null }, 'La fecha no es válida'],
    ['words', { date: 'mañana a las diez' }, 'La fecha no es válida'],
    ['a day without time', { date: '2026-11-23' }, 'La fecha no es válida'],
    ['a time without zone', { date: '2026-11-23T09:00:00' }, 'La fecha no es válida'],
  ])('answers 400 to %s', async (_label, body, message) => {
    const response = await stack.api.post('/dates', body, patients[0]!.token);
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([{ message, field: 'date' }]);
  });

  it.each([
    ['an operator as the date', { date: { $gt: '' } }],
    ['an operator as an extra field', { date: '2026-11-23T09:00:00Z', pacientId: { $ne: null } }],
    ['a dotted key', { 'user.name': 'x', date: '2026-11-23T09:00:00Z' }],
  ])('refuses %s with 400', async (_label, body) => {
    const response = await stack.api.post('/dates', body, patients[0]!.token);
    expect(response.status).toBe(400);
    expect(await service().models.Appointment.countDocuments({ pacientId: patients[0]!.id })).toBe(0);
  });

  it('ignores a pacientId in the body: a patient books only for themself', async () => {
    const [patient, other] = [freshPatient(), freshPatient()];
    const response = await stack.api.post(
      '/dates',
      { date: slots.next(), pacientId: other.id },
      patient.token,
    );
    expect(response.status).toBe(201);
    const stored = await service().models.Appointment.findById(response.body.id).lean();
    expect(stored).toMatchObject({
      pacientId: patient.id,
      bookedBy: { id: patient.id, rol: 'PACIENT' },
      channel: 'patient',
    });
  });

  it('answers 409 "Ya tienes una cita reservada" to a patient who already has an active appointment', async () => {
    const patient = freshPatient();
    const first = await book(patient, slots.next());
    expect(first.status).toBe(201);
    const second = await book(patient, slots.next());
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      message: 'Ya tienes una cita reservada',
      errors: [{ message: 'Ya tienes una cita reservada', field: 'date' }],
      // Which one (the kiosk tells "check in" from "another day" with it).
      appointment: {
        id: first.body.id,
        date: first.body.date,
        status: 'booked',
        today: false,
        checkInOpen: false,
      },
    });
  });

  it('answers 409 "Ese horario ya no está disponible" for a slot someone else holds', async () => {
    const date = slots.next();
    expect((await book(freshPatient(), date)).status).toBe(201);
    const loser = await book(freshPatient(), date);
    expect(loser.status).toBe(409);
    expect(loser.body).toEqual({
      message: 'Ese horario ya no está disponible',
      errors: [{ message: 'Ese horario ya no está disponible', field: 'date' }],
    });
  });
});

describe('a patient cancels their appointment (DELETE /dates/:date)', () => {
  it('cancels it, e-mails a notice, frees the slot, and lets the same slot be booked again', async () => {
    const [patient, other] = [freshPatient(), freshPatient()];
    const date = slots.next();
    const booked = await book(patient, date);
    await stack.mail.waitForMessagesTo(patient.email, 1);

    const cancelled = await stack.api.delete(`/dates/${encodeURIComponent(date)}`, patient.token);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({
      message: 'Cita cancelada',
      id: booked.body.id,
      status: 'cancelled',
      refundable: true,
    });
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toEqual({ date: null });

    const mails = await stack.mail.waitForMessagesTo(patient.email, 2);
    const notice = mails.find((m) => m.Subject.startsWith('Cita cancelada'));
    expect(notice?.Text).toMatch(/como nos ha(s)? pedido/);

    expect((await book(other, date)).status).toBe(201);
    expect((await stack.api.delete(`/dates/${encodeURIComponent(date)}`, other.token)).status).toBe(200);
    const rebooked = await book(patient, date);
    expect(rebooked.status).toBe(201);
    expect(rebooked.body.id).not.toBe(booked.body.id);
  });

  it('finds the appointment by the same instant written with an offset', async () => {
    const patient = freshPatient();
    const date = slots.next();
    await book(patient, date);
    const withOffset = new Date(date).toISOString().replace('Z', '+00:00');
    expect((await stack.api.delete(`/dates/${encodeURIComponent(withOffset)}`, patient.token)).status).toBe(
      200,
    );
  });

  it("answers 404 for another patient's appointment and leaves it booked", async () => {
    const [owner, intruder] = [freshPatient(), freshPatient()];
    const date = slots.next();
    await book(owner, date);
    const response = await stack.api.delete(`/dates/${encodeURIComponent(date)}`, intruder.token);
    expect(response.status).toBe(404);
    expect((await stack.api.get('/dates/currentDate', owner.token)).body).toMatchObject({
      date,
      status: 'booked',
    });
  });

  it('answers 400 to a value that is not a date', async () => {
    const response = await stack.api.delete('/dates/not-a-date', patients[0]!.token);
    expect(response).toMatchObject({ status: 400, body: { errors: [{ field: 'date' }] } });
  });
});

describe('booked slots (GET /dates/booked)', () => {
  it('lists booked instants from today on to anyone, without personal data, and drops cancelled ones', async () => {
    const patient = freshPatient();
    const [kept, cancelled] = [slots.next(), slots.next()];
    await book(patient, cancelled);
    await stack.api.delete(`/dates/${encodeURIComponent(cancelled)}`, patient.token);
    await book(patient, kept);

    const response = await stack.api.get('/dates/booked');
    expect(response.status).toBe(200);
    expect(response.body).toContain(kept);
    expect(response.body).not.toContain(cancelled);
    expect(
      response.body.every((item: unknown) => typeof item === 'string' && !Number.isNaN(Date.parse(item))),
    ).toBe(true);
    expect(JSON.stringify(response.body)).not.toContain(patient.email);
  });
});

describe('patients the read model has not seen yet', () => {
  it('books for a patient missing from the read model by asking the auth service, and remembers them', async () => {
    const patient = freshPatient();
    const { Patient } = service().models;
    await Patient.deleteOne({ _id: patient.id });

    const response = await book(patient, slots.next());
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(patient.name);
    expect(await Patient.findById(patient.id).lean()).toMatchObject({
      name: patient.name,
      email: patient.email,
      phone: patient.phone,
    });
  });
});
