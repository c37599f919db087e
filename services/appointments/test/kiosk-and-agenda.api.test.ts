import { listenForMessages } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import type { Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { bookedAt, centreDayOf, minutesFromNow } from './support/fixtures';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';

/**
 * The kiosk and the agenda: what the kiosk's booking answers when the patient already has
 * an appointment, "be seen now" (the swap of a later appointment for a walk-in, double presses
 * included), and the day's agenda.
 */

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(6);
let nextPatient = 0;
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;

appointmentsTestStack('kiosk', 14, (started) => ({ stack, staff, patients } = started));

/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);
const kiosk = async (path: string, patient: TestPatient) =>
  stack.api.post(path, { pacientId: patient.id, code: await codes(patient.email) }, staff.SERVICE_ACCOUNT);
const bookLater = async (patient: TestPatient) => {
  const response = await stack.api.post(
    '/dates/admin',
    { pacientId: patient.id, date: slots.next() },
    staff.DOCTOR,
  );
  expect(response.status).toBe(201);
  return response.body as { id: string; date: string };
};
/** The patient's documents holding their active key: exactly one while they have an appointment. */
const holders = (patient: TestPatient) =>
  service()
    .models.Appointment.find({ activePatientKey: patient.id })
    .lean<Array<{ appointmentId: string }>>();

describe('the kiosk books (POST /dates/service) a patient who has an appointment', () => {
  it('answers 409 with the appointment of another day: not today, not to check in', async () => {
    const patient = freshPatient();
    const later = await bookLater(patient);
    const response = await kiosk('/dates/service', patient);
    expect(response).toMatchObject({
      status: 409,
      body: {
        message: 'El paciente ya tiene una cita reservada',
        errors: [{ message: 'El paciente ya tiene una cita reservada', field: 'pacientId' }],
        appointment: { id: later.id, date: later.date, status: 'booked', today: false, checkInOpen: false },
      },
    });
  });

  it('answers 409 with the appointment of now: to check in', async () => {
    const patient = freshPatient();
    const first = await kiosk('/dates/service', patient);
    const second = await kiosk('/dates/service', patient);
    expect(second.status).toBe(409);
    expect(second.body.appointment).toMatchObject({ id: first.body.id, status: 'booked', checkInOpen: true });
    expect(second.body.appointment.today).toBe(centreDayOf(first.body.date) === centreDayOf(new Date()));
  });

  it('ends an appointment missed by more than its check-in window as a no-show, and books the walk-in', async () => {
    const patient = freshPatient();
    const missed = await bookedAt(
      service(),
      { id: patient.id, name: patient.name, email: patient.email },
      minutesFromNow(-40),
    );
    const events = await listenForMessages<{ data: { id: string; by?: unknown } }>(
      stack.amqpUrl,
      stack.exchange,
      'appointments.appointment.noShow.v1',
    );
    const response = await kiosk('/dates/service', patient);
    expect(response.status).toBe(201);
    expect((await stack.api.get(`/dates/id/${missed.id}`, staff.DOCTOR)).body.status).toBe('noShow');
    const event = await events.waitFor((m) => m.body.data.id === missed.id);
    expect(event.body.data.by).toBeUndefined();
    await events.close();
  });
});

describe('be seen now (POST /dates/service/now)', () => {
  it('replaces a later appointment by a walk-in: the patient ends with exactly that one', async () => {
    const patient = freshPatient();
    const later = await bookLater(patient);
    const events = await listenForMessages<{
      data: { id: string; by?: { rol: string }; replacedBy?: string };
    }>(stack.amqpUrl, stack.exchange, 'appointments.appointment.*.v1');
    // The e-mailed code first: fetching it must not count in the walk-in's "one minute from now".
    await codes(patient.email);
    const before = Date.now();
    const response = await kiosk('/dates/service/now', patient);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      pacientId: patient.id,
      status: 'booked',
      channel: 'kiosk',
      name: patient.name,
    });
    expect(Date.parse(response.body.date) - before).toBeGreaterThan(55_000);
    expect(Date.parse(response.body.date) - before).toBeLessThan(65_000);

    expect((await stack.api.get(`/dates/id/${later.id}`, staff.DOCTOR)).body.status).toBe('cancelled');
    const active = await stack.api.get(`/dates/userid/${patient.id}`, staff.DOCTOR);
    expect(active.body.appointment.map((a: { id: string }) => a.id)).toEqual([response.body.id]);
    expect((await holders(patient)).map((h) => h.appointmentId)).toEqual([response.body.id]);
    // Its slot is free again.
    expect((await stack.api.get('/dates/booked')).body).not.toContain(later.date);

    const cancelled = await events.waitFor(
      (m) => m.routingKey === 'appointments.appointment.cancelled.v1' && m.body.data.id === later.id,
    );
    expect(cancelled.body.data.by?.rol).toBe('SERVICE_ACCOUNT');
    expect(cancelled.body.data.replacedBy).toBe(response.body.id);
    await events.waitFor(
      (m) => m.routingKey === 'appointments.appointment.booked.v1' && m.body.data.id === response.body.id,
    );
    await events.close();
  });

  it('gives one walk-in to a double (or quintuple) press, never two and never none', async () => {
    for (const presses of [2, 5]) {
      const patient = freshPatient();
      const later = await bookLater(patient);
      const responses = await Promise.all(
        Array.from({ length: presses }, () => kiosk('/dates/service/now', patient)),
      );
      const created = responses.filter((r) => r.status === 201);
      expect(created).toHaveLength(1);
      expect(responses.filter((r) => r.status !== 201).every((r) => r.status === 409)).toBe(true);
      expect((await holders(patient)).map((h) => h.appointmentId)).toEqual([created[0]!.body.id]);
      const history = await stack.api.get(`/dates/history/userid/${patient.id}`, staff.DOCTOR);
      expect(
        history.body.appointments.map((a: { id: string; status: string }) => [a.id, a.status]).sort(),
      ).toEqual(
        [
          [created[0]!.body.id, 'booked'],
          [later.id, 'cancelled'],
        ].sort(),
      );
    }
  });

  it('answers 409 with the appointment when it can be checked in now, and books a plain walk-in without one', async () => {
    const patient = freshPatient();
    const now = await kiosk('/dates/service/now', patient);
    expect(now.status).toBe(201);
    const again = await kiosk('/dates/service/now', patient);
    expect(again).toMatchObject({
      status: 409,
      body: {
        message: 'El paciente tiene su cita ahora: registre su llegada',
        appointment: { id: now.body.id, checkInOpen: true },
      },
    });
    expect((await kiosk('/dates/checkin', patient)).status).toBe(200);
    const checkedIn = await kiosk('/dates/service/now', patient);
    expect(checkedIn.status).toBe(409);
    expect(checkedIn.body.appointment).toMatchObject({
      id: now.body.id,
      status: 'checkedIn',
      checkInOpen: false,
    });
    // Another patient's id with this patient's code proves nothing: 403, nothing said about that id.
    expect((await kiosk('/dates/service/now', { ...patient, id: '0123456789abcdef01234567' })).status).toBe(
      403,
    );
  });
});

describe('the agenda (GET /dates/agenda)', () => {
  it("lists a day's appointments and walk-ins in time order, ended ones included, deleted ones not", async () => {
    const [a, b, c, d, e] = [freshPatient(), freshPatient(), freshPatient(), freshPatient(), freshPatient()];
    const walkIn = async (p: TestPatient, offsetMs: number) =>
      stack.api.post(
        '/dates/service',
        { pacientId: p.id, date: new Date(Date.now() + offsetMs).toISOString(), code: await codes(p.email) },
        staff.SERVICE_ACCOUNT,
      );
    const checkedIn = (await walkIn(a, 30 * 60_000)).body;
    await stack.api.post(`/dates/checkin/${checkedIn.id}`, {}, staff.DOCTOR);
    const booked = (await walkIn(b, 50 * 60_000)).body;
    const cancelled = (await walkIn(c, 10 * 60_000)).body;
    await stack.api.delete(`/dates/cancel/${cancelled.id}`, staff.DOCTOR);
    const deleted = (await walkIn(d, 20 * 60_000)).body;
    await stack.api.delete(`/dates/delete/${deleted.id}`, staff.ADMIN);
    const noShow = (await walkIn(e, -60_000)).body;
    await stack.api.post(`/dates/noshow/${noShow.id}`, {}, staff.DOCTOR);

    // Late in the evening the walk-ins straddle midnight: each day's agenda is asked for.
    const days = new Set([checkedIn, booked, cancelled, deleted, noShow].map((x) => centreDayOf(x.date)));
    const entries: Array<Record<string, unknown> & { date: string; id: string }> = [];
    for (const day of days) {
      const response = await stack.api.get(`/dates/agenda?date=${day}`, staff.DOCTOR);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ date: day, timeZone: 'Atlantic/Canary' });
      const answered = response.body.appointments as typeof entries;
      expect(answered.map((x) => x.date)).toEqual([...answered.map((x) => x.date)].sort());
      entries.push(...answered);
    }
    const ours = new Map(entries.map((x) => [x.id, x]));
    expect(ours.has(deleted.id)).toBe(false);
    expect(ours.get(checkedIn.id)).toEqual({
      id: checkedIn.id,
      date: checkedIn.date,
      status: 'checkedIn',
      name: a.name,
      pacientId: a.id,
      user: { id: a.id, name: a.name, email: a.email, phone: a.phone },
      channel: 'kiosk',
      checkedInAt: expect.any(String),
      bookingCode: checkedIn.bookingCode,
    });
    expect(ours.get(booked.id)).toMatchObject({ status: 'booked' });
    expect(ours.get(booked.id)).not.toHaveProperty('checkedInAt');
    expect(ours.get(cancelled.id)).toMatchObject({ status: 'cancelled', endedAt: expect.any(String) });
    expect(ours.get(noShow.id)).toMatchObject({ status: 'noShow', endedAt: expect.any(String) });
  });

  it('shows today by default and any other day on request', async () => {
    const today = await stack.api.get('/dates/agenda', staff.ADMIN);
    expect(today.body.date).toBe(centreDayOf(new Date()));
    const later = await bookLater(freshPatient());
    const other = await stack.api.get(`/dates/agenda?date=${centreDayOf(later.date)}`, staff.ADMIN);
    expect(other.body.appointments.map((x: { id: string }) => x.id)).toContain(later.id);
  });

  it.each([['2027-02-30'], ['2027-2-3'], ['mañana'], ['2027-02-03T00:00:00Z']])(
    'answers 400 to date=%s',
    async (date) => {
      const response = await stack.api.get(`/dates/agenda?date=${encodeURIComponent(date)}`, staff.DOCTOR);
      expect(response).toMatchObject({
        status: 400,
        body: { errors: [{ field: 'date', message: 'La fecha debe tener el formato AAAA-MM-DD' }] },
      });
    },
  );
});
