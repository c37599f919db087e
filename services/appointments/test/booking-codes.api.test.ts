import {
  appointmentBooked,
  BOOKING_CODE_ALPHABET,
  isBookingCode,
  KIOSK_PROOF_MESSAGES,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { eventually } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { MongoAppointmentRepository } from '../src/data/appointment.repository';
import { bookedAt, minutesFromNow } from './support/fixtures';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';

/**
 * Booking codes (docs/product/kiosk.md#proof): every appointment has one, unique among the live
 * ones, in every answer that carries the appointment; and the kiosk acts on a patient only with
 * their booking code or their e-mailed one-time code.
 */

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(8);
let nextPatient = 0;
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;
const CODE = new RegExp(`^[${BOOKING_CODE_ALPHABET}]{6}$`);

appointmentsTestStack('codigos', 16, (started) => ({ stack, staff, patients } = started));
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);

const checkIn = (patient: TestPatient, code?: string) =>
  stack.api.post(
    '/dates/checkin',
    { pacientId: patient.id, ...(code === undefined ? {} : { code }) },
    staff.SERVICE_ACCOUNT,
  );
/** An appointment starting in ten minutes (its check-in window is open), written as booked. */
const bookedSoon = (patient: TestPatient) =>
  bookedAt(service(), { id: patient.id, name: patient.name, email: patient.email }, minutesFromNow(10));
const statusOf = async (id: string) => (await stack.api.get(`/dates/id/${id}`, staff.DOCTOR)).body.status;

describe('every appointment has a booking code', () => {
  it('is in every answer that carries the appointment: booking, reading, lists, history, current date', async () => {
    const patient = freshPatient();
    const booked = await stack.api.post('/dates', { date: slots.next() }, patient.token);
    expect(booked.status).toBe(201);
    const code = booked.body.bookingCode as string;
    expect(code).toMatch(CODE);
    expect(isBookingCode(code)).toBe(true);
    expect((await stack.api.get(`/dates/id/${booked.body.id}`, patient.token)).body.bookingCode).toBe(code);
    expect((await stack.api.get('/dates/currentDate', patient.token)).body.bookingCode).toBe(code);
    const history = await stack.api.get(`/dates/history/userid/${patient.id}`, staff.DOCTOR);
    expect(history.body.appointments[0].bookingCode).toBe(code);
    const active = await stack.api.get(`/dates/userid/${patient.id}`, staff.ADMIN);
    expect(active.body.appointment[0].bookingCode).toBe(code);
    const listed = await stack.api.get(
      `/dates?search=${encodeURIComponent(patient.email)}&status=all`,
      staff.DOCTOR,
    );
    expect(listed.body.dates.map((a: { bookingCode: string }) => a.bookingCode)).toEqual([code]);
  });

  it('gives a moved appointment a code of its own: the old one no longer proves anything', async () => {
    const patient = freshPatient();
    const first = await stack.api.post(
      '/dates/admin',
      { pacientId: patient.id, date: slots.next() },
      staff.ADMIN,
    );
    const moved = await stack.api.post('/dates/reschedule', { date: slots.next() }, patient.token);
    expect(moved.status).toBe(200);
    expect(moved.body.bookingCode).toMatch(CODE);
    expect(moved.body.bookingCode).not.toBe(first.body.bookingCode);
    // The cancelled one keeps showing its code in the history, but holds it no more.
    expect((await stack.api.get(`/dates/id/${first.body.id}`, staff.DOCTOR)).body.bookingCode).toBe(
      first.body.bookingCode,
    );
    const stale = await stack.api.post(
      '/dates/code/verify',
      { pacientId: patient.id, code: first.body.bookingCode },
      staff.SERVICE_ACCOUNT,
    );
    expect(stale.status).toBe(403);
    const current = await stack.api.post(
      '/dates/code/verify',
      { pacientId: patient.id, code: moved.body.bookingCode.toLowerCase() },
      staff.SERVICE_ACCOUNT,
    );
    expect(current).toMatchObject({ status: 200, body: { pacientId: patient.id } });
  });

  it('never gives two live appointments one code: a code already held is drawn again', async () => {
    const [a, b] = [freshPatient(), freshPatient()];
    const draws = ['KXR4T7', 'KXR4T7', 'KXR4T7', 'MW93PA'];
    const repository = new MongoAppointmentRepository(
      service().models,
      () => undefined,
      () => draws.shift()!,
    );
    const first = await bookedAt(service(), { id: a.id, name: a.name, email: a.email }, minutesFromNow(60));
    // The fixture's repository draws at random; give `first` the code the next draws will collide with,
    // once the relay has published its event: on FerretDB an update is a read-modify-write, so this
    // one and the relay's removal of the published event could otherwise undo each other.
    await eventually(
      async () => !(await service().models.Appointment.exists({ _id: first.id, outboxPending: true })),
      10_000,
      'the booking event published',
    );
    await service().models.Appointment.updateOne(
      { _id: first.id, kind: 'active' },
      { $set: { bookingCode: 'KXR4T7', codeKey: 'KXR4T7' } },
    );
    expect(await service().models.Appointment.countDocuments({ codeKey: 'KXR4T7' })).toBe(1);
    const second = await repository.book(
      {
        date: minutesFromNow(90),
        patientId: b.id,
        user: { id: b.id, name: b.name, email: b.email },
        bookedBy: { id: b.id, rol: 'PACIENT' },
        channel: 'staff',
        walkIn: true,
      },
      ({ id, bookingCode }) =>
        createEnvelope(
          appointmentBooked,
          {
            id,
            date: minutesFromNow(90).toISOString(),
            pacientId: b.id,
            user: { id: b.id, name: b.name, email: b.email },
            channel: 'staff',
            by: { id: b.id, rol: 'PACIENT' },
            bookingCode,
          },
          'test',
        ),
    );
    expect(second.bookingCode).toBe('MW93PA');
    expect(draws).toEqual([]);
    expect(await service().models.Appointment.countDocuments({ codeKey: 'KXR4T7' })).toBe(1);
  });

  it('gives a code at start-up to the live appointments made before codes existed, and frees it when one ends', async () => {
    const patient = freshPatient();
    const old = await bookedSoon(patient);
    await service().models.Appointment.updateOne(
      { _id: old.id, kind: 'active' },
      { $unset: { bookingCode: '', codeKey: '' } },
    );
    expect((await stack.api.get(`/dates/id/${old.id}`, staff.DOCTOR)).body).not.toHaveProperty('bookingCode');
    expect(await service().repositories.appointments.assignMissingCodes()).toBeGreaterThanOrEqual(1);
    const given = (await stack.api.get(`/dates/id/${old.id}`, staff.DOCTOR)).body.bookingCode;
    expect(given).toMatch(CODE);
    expect(await service().repositories.appointments.assignMissingCodes()).toBe(0);

    expect((await stack.api.delete(`/dates/cancel/${old.id}`, staff.DOCTOR)).status).toBe(200);
    expect(await service().models.Appointment.countDocuments({ codeKey: given })).toBe(0);
    expect((await checkIn(patient, given)).status).toBe(403);
  });
});

describe('the kiosk acts on a patient only with their code', () => {
  it('checks in with the booking code of the appointment (any case, spaces)', async () => {
    const patient = freshPatient();
    const appointment = await bookedSoon(patient);
    const typed = `${appointment.bookingCode!.slice(0, 3).toLowerCase()} ${appointment.bookingCode!.slice(3)}`;
    const response = await checkIn(patient, typed);
    expect(response).toMatchObject({ status: 200, body: { id: appointment.id, status: 'checkedIn' } });
  });

  it('refuses in Spanish without a code, with a wrong one, or with another patient’s, and changes nothing', async () => {
    const [patient, other] = [freshPatient(), freshPatient()];
    const appointment = await bookedSoon(patient);
    const others = await bookedSoon(other);
    const wrongCode = appointment.bookingCode === 'AAAAAA' ? 'CCCCCC' : 'AAAAAA';
    // Wrong booking codes count (5 per patient in 10 minutes): three of them here.
    const PATHS = ['/dates/checkin', '/dates/service', '/dates/service/now'];
    for (const [code, message, paths] of [
      [undefined, KIOSK_PROOF_MESSAGES.missing, PATHS],
      ['123456', KIOSK_PROOF_MESSAGES.wrong, PATHS],
      [wrongCode, KIOSK_PROOF_MESSAGES.wrong, PATHS.slice(0, 2)],
      [others.bookingCode!, KIOSK_PROOF_MESSAGES.wrong, PATHS.slice(2)],
    ] as const) {
      for (const path of paths) {
        const response = await stack.api.post(
          path,
          { pacientId: patient.id, ...(code ? { code } : {}) },
          staff.SERVICE_ACCOUNT,
        );
        expect(response).toMatchObject({
          status: 403,
          body: { message, errors: [{ field: 'code', message }] },
        });
      }
    }
    expect(await statusOf(appointment.id)).toBe('booked');
    expect(await statusOf(others.id)).toBe('booked');
    const history = await stack.api.get(`/dates/history/userid/${patient.id}`, staff.DOCTOR);
    expect(history.body.appointments.map((a: { id: string }) => a.id)).toEqual([appointment.id]);
  });

  it('checks in with the e-mailed one-time code; a patient with no appointment today still gets 404', async () => {
    const [withAppointment, without] = [freshPatient(), freshPatient()];
    const appointment = await bookedSoon(withAppointment);
    expect((await checkIn(withAppointment, await codes(withAppointment.email))).status).toBe(200);
    expect(await statusOf(appointment.id)).toBe('checkedIn');
    const none = await checkIn(without, await codes(without.email));
    expect(none).toMatchObject({
      status: 404,
      body: { message: 'El paciente no tiene ninguna cita para hoy' },
    });
  });

  it('lets doctors and admins check a patient in without a code', async () => {
    const patient = freshPatient();
    const appointment = await bookedSoon(patient);
    const response = await stack.api.post('/dates/checkin', { pacientId: patient.id }, staff.DOCTOR);
    expect(response).toMatchObject({ status: 200, body: { id: appointment.id, status: 'checkedIn' } });
  });

  it('stops trying booking codes for a patient after 5 wrong ones, the right one included (429)', async () => {
    const patient = freshPatient();
    const appointment = await bookedSoon(patient);
    const wrong = [...BOOKING_CODE_ALPHABET.slice(0, 5)].map((c) => `${c}${c}${c}${c}${c}${c}`);
    const answers = await Promise.all(
      wrong
        .filter((code) => code !== appointment.bookingCode)
        .slice(0, 5)
        .map((code) => checkIn(patient, code)),
    );
    expect(answers.map((a) => a.status)).toEqual([403, 403, 403, 403, 403]);
    const right = await checkIn(patient, appointment.bookingCode);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/^Demasiados intentos/);
    expect(await statusOf(appointment.id)).toBe('booked');
  });
});
