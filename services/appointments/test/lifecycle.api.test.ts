import { listenForMessages } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { bookedAt, minutesFromNow } from './support/fixtures';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';

/**
 * The lifecycle through the gateway (docs/product/booking.md#appointment-lifecycle): check-in, attended,
 * no-show, cancel and delete, every transition allowed and refused, and the races that must let exactly one
 * through. Appointments "now" are kiosk walk-ins (now + 60 s by default, or a minute ago); appointments "past
 * their window" are written through the repository (tests/support/fixtures.ts).
 */

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(5);
let nextPatient = 0;
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;
const UNKNOWN_ID = '0123456789abcdef01234567';

appointmentsTestStack('lifecycle', 16, (started) => ({ stack, staff, patients } = started));
/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);

/** A kiosk walk-in: `offsetMs` from now (default one minute ahead, inside the check-in window). */
async function walkIn(patient: TestPatient, offsetMs?: number) {
  const body = {
    pacientId: patient.id,
    code: await codes(patient.email),
    ...(offsetMs === undefined ? {} : { date: new Date(Date.now() + offsetMs).toISOString() }),
  };
  const response = await stack.api.post('/dates/service', body, staff.SERVICE_ACCOUNT);
  expect(response.status).toBe(201);
  return response.body as { id: string; date: string };
}

const post = (path: string, token: string, body: object = {}) => stack.api.post(path, body, token);
const statusOf = async (id: string) => (await stack.api.get(`/dates/id/${id}`, staff.DOCTOR)).body.status;

describe('check-in (POST /dates/checkin, POST /dates/checkin/:id)', () => {
  it("checks in the patient's appointment of now for the kiosk, once, and keeps slot and patient held", async () => {
    const patient = freshPatient();
    const appointment = await walkIn(patient);
    const events = await listenForMessages<{ data: { id: string; checkedInAt: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.checkedIn.v1',
    );
    const response = await post('/dates/checkin', staff.SERVICE_ACCOUNT, {
      pacientId: patient.id,
      code: await codes(patient.email),
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      id: appointment.id,
      date: appointment.date,
      status: 'checkedIn',
      checkedInAt: expect.any(String),
    });
    expect(Math.abs(Date.parse(response.body.checkedInAt) - Date.now())).toBeLessThan(10_000);
    expect((await stack.api.get(`/dates/id/${appointment.id}`, staff.DOCTOR)).body).toMatchObject({
      status: 'checkedIn',
      checkedInAt: response.body.checkedInAt,
    });

    const again = await post('/dates/checkin', staff.SERVICE_ACCOUNT, {
      pacientId: patient.id,
      code: await codes(patient.email),
    });
    expect(again).toMatchObject({
      status: 409,
      body: { message: 'La llegada del paciente ya está registrada' },
    });
    // Still the patient's one active appointment: no second booking, still listed as theirs.
    expect(
      (await post('/dates/admin', staff.DOCTOR, { pacientId: patient.id, date: slots.next() })).status,
    ).toBe(409);
    expect((await stack.api.get(`/dates/userid/${patient.id}`, staff.DOCTOR)).body.appointment).toEqual([
      expect.objectContaining({ id: appointment.id, status: 'checkedIn' }),
    ]);
    // The back office list shows it checked in, not booked.
    const listed = async (status: string) =>
      (await stack.api.get(`/dates?status=${status}&limit=100`, staff.ADMIN)).body.dates.map(
        (a: { id: string; status: string }) => [a.id, a.status],
      );
    expect(await listed('checkedIn')).toContainEqual([appointment.id, 'checkedIn']);
    expect(await listed('all')).toContainEqual([appointment.id, 'checkedIn']);
    expect((await listed('booked')).map(([id]: [string]) => id)).not.toContain(appointment.id);
    const event = await events.waitFor((m) => m.body.data.id === appointment.id);
    expect(event.body.data.checkedInAt).toBe(response.body.checkedInAt);
    await events.close();
  });

  it('gives exactly one 200 to two concurrent check-ins, and a 409 to the other (kiosk and doctor, or by id)', async () => {
    for (const race of [
      (p: TestPatient, _id: string, code: string) => [
        post('/dates/checkin', staff.SERVICE_ACCOUNT, { pacientId: p.id, code }),
        post('/dates/checkin', staff.DOCTOR, { pacientId: p.id }),
      ],
      (_p: TestPatient, id: string, _code: string) => [
        post(`/dates/checkin/${id}`, staff.DOCTOR),
        post(`/dates/checkin/${id}`, staff.ADMIN),
      ],
    ]) {
      const patient = freshPatient();
      const { id } = await walkIn(patient);
      const responses = await Promise.all(race(patient, id, await codes(patient.email)));
      expect(responses.map((r) => r.status).sort()).toEqual([200, 409]);
      expect(await statusOf(id)).toBe('checkedIn');
      expect(await service().models.Appointment.countDocuments({ appointmentId: id, kind: 'checkin' })).toBe(
        1,
      );
    }
  });

  it('answers 404 in Spanish when the patient has no appointment now: none, another day, or past its window', async () => {
    const nobody = freshPatient();
    const none = await post('/dates/checkin', staff.SERVICE_ACCOUNT, {
      pacientId: nobody.id,
      code: await codes(nobody.email),
    });
    expect(none).toMatchObject({
      status: 404,
      body: { message: 'El paciente no tiene ninguna cita para hoy', errors: [{ field: 'pacientId' }] },
    });

    const later = freshPatient();
    const booked = await post('/dates/admin', staff.DOCTOR, { pacientId: later.id, date: slots.next() });
    expect(
      (
        await post('/dates/checkin', staff.SERVICE_ACCOUNT, {
          pacientId: later.id,
          code: await codes(later.email),
        })
      ).status,
    ).toBe(404);
    const byId = await post(`/dates/checkin/${booked.body.id}`, staff.DOCTOR);
    expect(byId.status).toBe(404);
    expect(byId.body.message).toMatch(/desde 2 horas antes hasta 30 minutos después/);

    // Started 40 minutes ago: its window closed 10 minutes ago.
    const missed = freshPatient();
    const past = await bookedAt(
      service(),
      { id: missed.id, name: missed.name, email: missed.email },
      minutesFromNow(-40),
    );
    expect((await post(`/dates/checkin/${past.id}`, staff.ADMIN)).status).toBe(404);
    expect(await statusOf(past.id)).toBe('booked');
    expect((await post(`/dates/checkin/${UNKNOWN_ID}`, staff.ADMIN)).status).toBe(404);
  });

  it('refuses to check in a cancelled appointment', async () => {
    const patient = freshPatient();
    const { id } = await walkIn(patient);
    expect((await stack.api.delete(`/dates/cancel/${id}`, staff.DOCTOR)).status).toBe(200);
    const byId = await post(`/dates/checkin/${id}`, staff.DOCTOR);
    expect(byId).toMatchObject({
      status: 409,
      body: { message: 'Solo se puede registrar la llegada de una cita reservada' },
    });
    expect(
      (
        await post('/dates/checkin', staff.SERVICE_ACCOUNT, {
          pacientId: patient.id,
          code: await codes(patient.email),
        })
      ).status,
    ).toBe(404);
    expect(await statusOf(id)).toBe('cancelled');
  });
});

describe('attended, no-show, cancel and delete after check-in', () => {
  it('marks attended (keeping the check-in time), frees the patient, and then refuses every other change', async () => {
    const patient = freshPatient();
    const { id } = await walkIn(patient);
    const checkedIn = await post(`/dates/checkin/${id}`, staff.DOCTOR);
    const attended = await post(`/dates/attended/${id}`, staff.DOCTOR);
    expect(attended).toMatchObject({
      status: 200,
      body: { id, status: 'attended', checkedInAt: checkedIn.body.checkedInAt, endedAt: expect.any(String) },
    });
    expect((await stack.api.delete(`/dates/cancel/${id}`, staff.ADMIN)).body).toEqual({
      message: 'Solo se pueden cancelar citas reservadas',
    });
    expect((await stack.api.delete(`/dates/cancel/${id}`, staff.ADMIN)).status).toBe(409);
    expect((await stack.api.delete(`/dates/delete/${id}`, staff.ADMIN)).status).toBe(409);
    expect((await post(`/dates/noshow/${id}`, staff.DOCTOR)).status).toBe(409);
    expect((await post(`/dates/attended/${id}`, staff.DOCTOR)).status).toBe(409);
    expect((await post(`/dates/checkin/${id}`, staff.DOCTOR)).status).toBe(409);
    expect(await statusOf(id)).toBe('attended');
    // The patient is free to book again.
    expect(
      (await post('/dates/admin', staff.DOCTOR, { pacientId: patient.id, date: slots.next() })).status,
    ).toBe(201);
  });

  it('lets staff cancel a checked-in appointment, but not the patient, and never as a no-show', async () => {
    const patient = freshPatient();
    const { id, date } = await walkIn(patient);
    expect((await post(`/dates/checkin/${id}`, staff.ADMIN)).status).toBe(200);
    const own = await stack.api.delete(`/dates/${encodeURIComponent(date)}`, patient.token);
    expect(own).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/habl(a|e) con recepción/) },
    });
    expect((await post(`/dates/noshow/${id}`, staff.DOCTOR)).body.message).toBe(
      'El paciente ha registrado su llegada: no se puede marcar como no presentado',
    );
    const cancelled = await stack.api.delete(`/dates/cancel/${id}`, staff.DOCTOR);
    // Checked in: less than the refund window before the start.
    expect(cancelled.body).toEqual({ message: 'Cita cancelada', id, status: 'cancelled', refundable: false });
    expect(await statusOf(id)).toBe('cancelled');
  });

  it('marks a no-show only once the appointment has started, and only from booked', async () => {
    const early = await walkIn(freshPatient());
    expect((await post(`/dates/noshow/${early.id}`, staff.DOCTOR)).body).toEqual({
      message: 'La cita aún no ha empezado',
    });
    const started = await walkIn(freshPatient(), -60_000);
    const noShow = await post(`/dates/noshow/${started.id}`, staff.DOCTOR);
    expect(noShow).toMatchObject({ status: 200, body: { id: started.id, status: 'noShow' } });
    expect(noShow.body.checkedInAt).toBeUndefined();
    expect((await post(`/dates/attended/${started.id}`, staff.ADMIN)).status).toBe(409);
    expect((await post(`/dates/checkin/${started.id}`, staff.ADMIN)).status).toBe(409);
  });

  it('refuses to mark attended before the check-in window opens, and answers 404 for unknown ids', async () => {
    const { body } = await post('/dates/admin', staff.DOCTOR, {
      pacientId: freshPatient().id,
      date: slots.next(),
    });
    expect((await post(`/dates/attended/${body.id}`, staff.DOCTOR)).status).toBe(409);
    expect(await statusOf(body.id)).toBe('booked');
    expect((await post(`/dates/attended/${UNKNOWN_ID}`, staff.DOCTOR)).status).toBe(404);
    expect((await post(`/dates/noshow/${UNKNOWN_ID}`, staff.DOCTOR)).status).toBe(404);
    expect((await post('/dates/attended/not-an-id', staff.DOCTOR)).status).toBe(400);
  });

  it('lets exactly one of 20 concurrent attended / no-show / cancel / delete calls through, with one event', async () => {
    const patient = freshPatient();
    const { id } = await walkIn(patient, -60_000);
    const events = await listenForMessages<{ data: { id: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.*.v1',
    );
    const calls = Array.from({ length: 20 }, (_, i) => {
      const token = i % 2 ? staff.DOCTOR : staff.ADMIN;
      switch (i % 4) {
        case 0:
          return post(`/dates/attended/${id}`, token);
        case 1:
          return post(`/dates/noshow/${id}`, token);
        case 2:
          return stack.api.delete(`/dates/cancel/${id}`, token);
        default:
          return stack.api.delete(`/dates/delete/${id}`, staff.ADMIN);
      }
    });
    const responses = await Promise.all(calls);
    const winners = responses.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(responses.filter((r) => r.status !== 200).every((r) => r.status === 409)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1500));
    const ours = events.received.filter(
      (m) => m.body.data.id === id && m.routingKey !== 'appointments.appointment.booked.v1',
    );
    await events.close();
    const final = await statusOf(id);
    expect(winners[0]!.body.status).toBe(final);
    expect(ours.map((m) => m.routingKey)).toEqual([`appointments.appointment.${final}.v1`]);
    expect(await service().models.Appointment.countDocuments({ appointmentId: id, kind: 'final' })).toBe(1);
    const history = await stack.api.get(`/dates/history/userid/${patient.id}`, staff.DOCTOR);
    expect(history.body.appointments).toEqual([expect.objectContaining({ id, status: final })]);
  });
});
