import { Types } from 'mongoose';
import { eventually, waitForQueue } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import {
  bookedAt,
  checkedInAt,
  ghostPatient,
  minutesFromNow,
  pastStartOfDay,
  publishRecordCreated,
  publishRecordUpdated,
} from './support/fixtures';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';

/**
 * A working day without surprises: a record prepared before the appointment's check-in window
 * leaves it booked; the kiosk's "be seen now" is told as a move forward, not a cancellation by the
 * centre; a checked-in patient cannot move or cancel their appointment; the back office's list of
 * the day's work shows every status. "Now" is the service's clock; appointments around it are
 * written through the repositories (support/fixtures.ts) or booked as walk-ins.
 */

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(9);
let nextPatient = 0;
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;
const statusOf = async (id: string) => (await service().repositories.appointments.findById(id))?.status;

appointmentsTestStack('dia', 8, (started) => ({ stack, staff, patients } = started));
/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);

beforeAll(async () => {
  await waitForQueue(stack.amqpUrl, `${stack.env.QUEUE_PREFIX}.appointments.records`);
});

const record = (dateId: string, userId: string) => ({
  id: dateId,
  userId,
  dateId,
  doctorId: String(new Types.ObjectId()),
});

describe('a clinical record saved before the check-in window opens', () => {
  it('leaves the appointment booked, listed, held and unannounced; saved again once the window is open, marks it attended', async () => {
    const patient = freshPatient();
    const slot = slots.next();
    const booked = await stack.api.post('/dates/admin', { date: slot, pacientId: patient.id }, staff.DOCTOR);
    expect(booked.status).toBe(201);
    // Three hours ahead: the window opens in one hour.
    const soon = await bookedAt(service(), ghostPatient('Pronto'), minutesFromNow(180));
    // Within the window (opened 30 minutes ago): the record marks it, also when it is an update.
    const now = await bookedAt(service(), ghostPatient('Ahora'), minutesFromNow(90));

    await publishRecordCreated(stack.busUrl, stack.exchange, record(booked.body.id, patient.id));
    await publishRecordCreated(stack.busUrl, stack.exchange, record(soon.id, soon.patientId));
    await publishRecordUpdated(stack.busUrl, stack.exchange, record(now.id, now.patientId));

    await eventually(async () => ((await statusOf(now.id)) === 'attended' ? true : undefined));
    // Give the other two events (published first) time to be handled too.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await statusOf(booked.body.id)).toBe('booked');
    expect(await statusOf(soon.id)).toBe('booked');
    expect((await stack.api.get('/dates/booked')).body).toContain(new Date(slot).toISOString());
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toMatchObject({
      date: new Date(slot).toISOString(),
      status: 'booked',
    });
    const listed = await stack.api.get(
      `/dates?status=booked&limit=100&search=${encodeURIComponent(patient.name)}`,
      staff.DOCTOR,
    );
    expect(listed.body.dates.map((a: { id: string }) => a.id)).toContain(booked.body.id);
    // Only the confirmation of the booking: nothing said about an end.
    const mails = await stack.mail.messagesTo(patient.email);
    expect(mails.map((m) => m.Subject)).toEqual([expect.stringMatching(/^Cita confirmada/)]);
  });
});

describe('kiosk "Ser atendido ahora"', () => {
  it('e-mails the later appointment as brought forward (not cancelled by the centre) and the walk-in as registered, without a calendar file', async () => {
    const patient = freshPatient();
    const later = await stack.api.post(
      '/dates/admin',
      { date: slots.next(), pacientId: patient.id },
      staff.DOCTOR,
    );
    expect(later.status).toBe(201);
    await stack.mail.waitForMessagesTo(patient.email, 1);
    // The booking code of the later appointment is the kiosk's proof (no code e-mail in this inbox).
    const now = await stack.api.post(
      '/dates/service/now',
      { pacientId: patient.id, code: later.body.bookingCode },
      staff.SERVICE_ACCOUNT,
    );
    expect(now.status).toBe(201);
    const mails = await stack.mail.waitForMessagesTo(patient.email, 3);
    const subjects = mails.map((m) => m.Subject);
    expect(subjects).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Cita confirmada/),
        expect.stringMatching(/^Cita adelantada/),
        'Registrado en el centro',
      ]),
    );
    expect(subjects.filter((s) => s.startsWith('Cita confirmada'))).toHaveLength(1);
    expect(subjects.some((s) => s.startsWith('Cita cancelada'))).toBe(false);
    for (const mail of mails) expect(mail.Text).not.toContain('El centro ha cancelado');
    const registered = mails.find((m) => m.Subject === 'Registrado en el centro')!;
    expect(registered.Text).not.toContain('Si no puede acudir');
    expect(registered.Attachments).toEqual([]);
    const forward = mails.find((m) => m.Subject.startsWith('Cita adelantada'))!;
    expect(forward.Attachments.map((a) => a.FileName)).toEqual(['cita-cancelada.ics']);
  });
});

describe('a checked-in patient', () => {
  it('is told in Spanish that they cannot move or cancel the appointment, and their area knows they are checked in', async () => {
    const patient = freshPatient();
    const walkIn = await stack.api.post(
      '/dates/service',
      { pacientId: patient.id, code: await codes(patient.email) },
      staff.SERVICE_ACCOUNT,
    );
    expect(walkIn.status).toBe(201);
    const checkIn = await stack.api.post(
      '/dates/checkin',
      { pacientId: patient.id, code: await codes(patient.email) },
      staff.SERVICE_ACCOUNT,
    );
    expect(checkIn.status).toBe(200);

    const current = await stack.api.get('/dates/currentDate', patient.token);
    expect(current.body).toEqual({
      id: walkIn.body.id,
      date: walkIn.body.date,
      status: 'checkedIn',
      checkedInAt: checkIn.body.checkedInAt,
      bookingCode: walkIn.body.bookingCode,
    });
    const move = await stack.api.post('/dates/reschedule', { date: slots.next() }, patient.token);
    expect(move).toMatchObject({
      status: 409,
      body: { message: 'Ya ha registrado su llegada: para cambiar la cita, hable con recepción' },
    });
    const cancel = await stack.api.delete(`/dates/${encodeURIComponent(walkIn.body.date)}`, patient.token);
    expect(cancel).toMatchObject({
      status: 409,
      body: { message: 'Ya ha registrado su llegada: para cancelar la cita, hable con recepción' },
    });
    expect(await statusOf(walkIn.body.id)).toBe('checkedIn');
  });
});

describe("GET /dates?status=current (the day's work)", () => {
  it("lists booked, checked-in, and today's attended and no-show appointments, not cancelled ones nor yesterday's, and finds them by name", async () => {
    // The no-show below started a minute ago: today's only once the day is two minutes old.
    await pastStartOfDay(2);
    const [waiting, seen, missed, cancelled] = [
      freshPatient(),
      freshPatient(),
      freshPatient(),
      freshPatient(),
    ];
    const w = (
      await stack.api.post(
        '/dates/service',
        { pacientId: waiting.id, code: await codes(waiting.email) },
        staff.SERVICE_ACCOUNT,
      )
    ).body;
    expect(
      (
        await stack.api.post(
          '/dates/checkin',
          { pacientId: waiting.id, code: await codes(waiting.email) },
          staff.SERVICE_ACCOUNT,
        )
      ).status,
    ).toBe(200);
    const s = (
      await stack.api.post(
        '/dates/service',
        { pacientId: seen.id, code: await codes(seen.email) },
        staff.SERVICE_ACCOUNT,
      )
    ).body;
    expect((await stack.api.post(`/dates/attended/${s.id}`, {}, staff.DOCTOR)).status).toBe(200);
    const m = (
      await stack.api.post(
        '/dates/service',
        {
          pacientId: missed.id,
          date: new Date(Date.now() - 60_000).toISOString(),
          code: await codes(missed.email),
        },
        staff.SERVICE_ACCOUNT,
      )
    ).body;
    expect((await stack.api.post(`/dates/noshow/${m.id}`, {}, staff.DOCTOR)).status).toBe(200);
    const c = (
      await stack.api.post('/dates/admin', { date: slots.next(), pacientId: cancelled.id }, staff.DOCTOR)
    ).body;
    expect((await stack.api.delete(`/dates/cancel/${c.id}`, staff.DOCTOR)).status).toBe(200);
    const old = await bookedAt(service(), ghostPatient('Ayer'), minutesFromNow(-26 * 60));
    expect(await service().lifecycle.attempt(old, { to: 'attended', initiator: 'system' })).toHaveProperty(
      'done',
    );
    const stillBooked = await bookedAt(service(), ghostPatient('Luego'), minutesFromNow(300));
    const checkedInLater = await checkedInAt(
      service(),
      await bookedAt(service(), ghostPatient('Sala'), minutesFromNow(30)),
      new Date(),
    );

    const current = await stack.api.get('/dates?status=current&limit=100', staff.DOCTOR);
    expect(current.status).toBe(200);
    const byId = new Map(current.body.dates.map((a: { id: string; status: string }) => [a.id, a.status]));
    expect(byId.get(w.id)).toBe('checkedIn');
    expect(byId.get(s.id)).toBe('attended');
    expect(byId.get(m.id)).toBe('noShow');
    expect(byId.get(stillBooked.id)).toBe('booked');
    expect(byId.get(checkedInLater.id)).toBe('checkedIn');
    expect(byId.has(c.id)).toBe(false);
    expect(byId.has(old.id)).toBe(false);

    for (const [patient, id] of [
      [waiting, w.id],
      [seen, s.id],
      [missed, m.id],
    ] as const) {
      const found = await stack.api.get(
        `/dates?status=current&search=${encodeURIComponent(patient.name)}`,
        staff.DOCTOR,
      );
      expect(found.body.dates.map((a: { id: string }) => a.id)).toEqual([id]);
    }
    // The detail shows the status and the arrival.
    expect((await stack.api.get(`/dates/id/${w.id}`, staff.DOCTOR)).body).toMatchObject({
      status: 'checkedIn',
      checkedInAt: expect.any(String),
    });
    // The default 30 s plus the two minutes pastStartOfDay may wait.
  }, 150_000);
});
