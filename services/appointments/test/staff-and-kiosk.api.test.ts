import { eventually } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import { uniqueEmail, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../src/app';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';
import { canary, nextLocalDay } from './support/slots';

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];
const slots = slotAllocator(4);
let nextPatient = 0;
const freshPatient = () => patients[nextPatient++]!;
const service = () => stack.components.appointments!.handle as AppointmentsService;
const UNKNOWN_ID = '0123456789abcdef01234567';

appointmentsTestStack('staff', 17, (started) => ({ stack, staff, patients } = started));
/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);
const walkIn = async (patient: TestPatient, date?: string) =>
  stack.api.post(
    '/dates/service',
    { pacientId: patient.id, code: await codes(patient.email), ...(date ? { date } : {}) },
    staff.SERVICE_ACCOUNT,
  );

const bookFor = (patient: TestPatient, date: string, token = staff.DOCTOR) =>
  stack.api.post('/dates/admin', { date, pacientId: patient.id }, token);

describe('doctors and admins book for a patient (POST /dates/admin)', () => {
  it('books the slot, answers with the appointment, and e-mails the patient', async () => {
    const patient = freshPatient();
    const date = slots.next();
    const response = await bookFor(patient, date, staff.ADMIN);
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.any(String),
      _id: response.body.id,
      date,
      status: 'booked',
      name: patient.name,
      pacientId: patient.id,
      user: { id: patient.id, name: patient.name, email: patient.email, phone: patient.phone },
      channel: 'staff',
      createdAt: expect.any(String),
      bookingCode: expect.stringMatching(/^[ACEFHJKMNPRTWXY2-9]{6}$/),
    });
    const [mail] = await stack.mail.waitForMessagesTo(patient.email, 1);
    expect(mail!.Subject).toMatch(/^Cita confirmada: /);
    expect(mail!.Text).toContain(`Código de su cita: ${response.body.bookingCode}`);
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toEqual({
      id: expect.any(String),
      date,
      status: 'booked',
      bookingCode: response.body.bookingCode,
    });
  });

  it('answers 409 "El paciente ya tiene una cita reservada" when the patient has an active appointment', async () => {
    const patient = freshPatient();
    await bookFor(patient, slots.next());
    const response = await bookFor(patient, slots.next());
    expect(response.status).toBe(409);
    expect(response.body.errors).toEqual([
      { message: 'El paciente ya tiene una cita reservada', field: 'pacientId' },
    ]);
  });

  it('answers 404 for an unknown patient and for a staff account given as patient', async () => {
    const unknown = await stack.api.post(
      '/dates/admin',
      { date: slots.next(), pacientId: UNKNOWN_ID },
      staff.DOCTOR,
    );
    expect(unknown).toMatchObject({
      status: 404,
      body: { message: 'Paciente no encontrado', errors: [{ field: 'pacientId' }] },
    });
    const me = await stack.api.get('/auth/currentUser', staff.ADMIN);
    const notPatient = await stack.api.post(
      '/dates/admin',
      { date: slots.next(), pacientId: me.body.id },
      staff.DOCTOR,
    );
    expect(notPatient.status).toBe(404);
  });

  it.each([
    ['a missing pacientId', { date: '2030-01-07T09:00:00Z' }, 'pacientId'],
    ['a malformed pacientId', { date: '2030-01-07T09:00:00Z', pacientId: 'abc' }, 'pacientId'],
    ['a numeric pacientId', { date: '2030-01-07T09:00:00Z', pacientId: 12 }, 'pacientId'],
    ['an off-grid date', { date: '2030-01-07T09:10:00Z', pacientId: UNKNOWN_ID }, 'date'],
    ['a weekend date', { date: '2030-01-05T09:00:00Z', pacientId: UNKNOWN_ID }, 'date'],
  ])('answers 400 to %s', async (_label, body, field) => {
    const response = await stack.api.post('/dates/admin', body, staff.DOCTOR);
    expect(response.status).toBe(400);
    expect(response.body.errors[0].field).toBe(field);
  });
});

describe('the kiosk books a walk-in (POST /dates/service)', () => {
  it('books one minute from now by default, off the grid, without taking a calendar slot', async () => {
    const patient = freshPatient();
    // The e-mailed code first: fetching it must not count in the walk-in's "one minute from now".
    await codes(patient.email);
    const before = Date.now();
    const response = await walkIn(patient);
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      pacientId: patient.id,
      channel: 'kiosk',
      status: 'booked',
      name: patient.name,
    });
    const offset = Date.parse(response.body.date) - before;
    expect(offset).toBeGreaterThan(55_000);
    expect(offset).toBeLessThan(65_000);
    expect((await stack.api.get('/dates/booked')).body).not.toContain(response.body.date);
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toEqual({
      id: expect.any(String),
      date: response.body.date,
      status: 'booked',
      bookingCode: response.body.bookingCode,
    });
  });

  it('accepts an explicit date within the hour and refuses one further ahead', async () => {
    const soon = new Date(Date.now() + 20 * 60_000 + 7_000).toISOString();
    expect((await walkIn(freshPatient(), soon)).status).toBe(201);
    const later = new Date(Date.now() + 2 * 3600_000).toISOString();
    const refused = await walkIn(freshPatient(), later);
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([
      { message: 'La cita inmediata debe ser dentro de la próxima hora', field: 'date' },
    ]);
  });

  it('books a patient the kiosk created a moment ago, before the registration event arrives', async () => {
    const email = uniqueEmail('walkin');
    const created = await stack.api.post(
      '/users/onboarding',
      { email, name: 'Visitante Nuevo', phone: '622 111 333', operation: 'create' },
      staff.SERVICE_ACCOUNT,
    );
    expect(created.status).toBe(201);
    // The creation hands the kiosk a one-time code of the new account: its proof for the booking.
    expect(created.body.code).toMatch(/^\d{6}$/);
    const response = await stack.api.post(
      '/dates/service',
      { pacientId: created.body.data.id, code: created.body.code },
      staff.SERVICE_ACCOUNT,
    );
    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({
      id: created.body.data.id,
      name: 'Visitante Nuevo',
      email,
      phone: '34622111333',
    });
  });
});

describe('the appointment list (GET /dates)', () => {
  const listed: TestPatient[] = [];
  const names = ['Álvaro Núñez', 'beatriz ortega', 'Carmen (Pérez)'];
  const dates: string[] = [];

  beforeAll(async () => {
    for (const name of names) {
      const email = uniqueEmail('list');
      const created = await stack.api.post(
        '/auth/doctor/patient/create',
        {
          name,
          email,
          phone: `6${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
          password: 'contraseña-lista',
        },
        staff.DOCTOR,
      );
      listed.push({ id: created.body.id, name, email, phone: created.body.phone, token: '' });
    }
    // Created in reverse name order, so date order and name order differ.
    for (const patient of [...listed].reverse()) {
      const date = canary(`${nextLocalDay(3, 6)} ${['09:00', '09:15', '09:30'][dates.length]}`);
      dates.push(date);
      expect((await bookFor(patient, date)).status).toBe(201);
    }
  });

  const listOf = async (query: string) => {
    const response = await stack.api.get(`/dates?${query}`, staff.ADMIN);
    expect(response.status).toBe(200);
    return response;
  };
  const ours = <T extends { pacientId: string }>(items: T[]) =>
    items.filter((a) => listed.some((p) => p.id === a.pacientId));

  it('finds patients by name ignoring case and accents, by e-mail, and by phone digits', async () => {
    expect((await listOf('search=alvaro')).body.dates.map((a: { name: string }) => a.name)).toEqual([
      'Álvaro Núñez',
    ]);
    expect((await listOf('search=BEATRIZ')).body.dates).toHaveLength(1);
    expect(
      (await listOf(`search=${encodeURIComponent(listed[2]!.email.toUpperCase())}`)).body.dates,
    ).toHaveLength(1);
    // The start of the national number (stored with the country code 34), as people type it.
    const digits = listed[0]!.phone.slice(2, 9);
    expect(
      (await listOf(`search=${digits.slice(0, 3)}%20${digits.slice(3)}`)).body.dates.map(
        (a: { name: string }) => a.name,
      ),
    ).toContain('Álvaro Núñez');
  });

  it('treats search text literally, never as a pattern', async () => {
    expect((await listOf('search=.*')).body).toMatchObject({ dates: [], total: 0 });
    expect((await listOf(`search=${encodeURIComponent('(Pérez)')}`)).body.dates).toHaveLength(1);
  });

  it('sorts by date ascending by default, and by -date, name and -name on request', async () => {
    const order = async (sort?: string) =>
      ours<{ pacientId: string; name: string }>(
        (await listOf(`limit=100${sort ? `&sort=${sort}` : ''}`)).body.dates,
      ).map((a) => a.name);
    expect(await order()).toEqual([...names].reverse());
    expect(await order('-date')).toEqual(names);
    expect(await order('name')).toEqual(names);
    expect(await order('-name')).toEqual([...names].reverse());
  });

  it('pages with page and limit, caps limit at 100 and reports totals', async () => {
    const all = (await listOf('limit=100')).body;
    const second = (await listOf('limit=2&page=2')).body;
    expect(second).toMatchObject({
      page: 2,
      limit: 2,
      total: all.total,
      totalPages: Math.ceil(all.total / 2),
    });
    expect(second.dates).toEqual(all.dates.slice(2, 4));
    expect((await listOf('limit=1000')).body.limit).toBe(100);
    expect((await listOf('')).body.limit).toBe(10);
  });

  it('lists booked appointments by default and every status with status=all', async () => {
    const cancelled = freshPatient();
    const { body } = await bookFor(cancelled, slots.next());
    await stack.api.delete(`/dates/cancel/${body.id}`, staff.DOCTOR);
    const ids = (page: { dates: Array<{ id: string }> }) => page.dates.map((a) => a.id);
    expect(ids((await listOf(`search=${encodeURIComponent(cancelled.email)}`)).body)).toEqual([]);
    const all = (await listOf(`status=all&search=${encodeURIComponent(cancelled.email)}`)).body;
    expect(all.dates).toEqual([expect.objectContaining({ id: body.id, status: 'cancelled' })]);
  });

  it.each([['sort=age'], ['status=gone'], ['page=0'], ['limit=abc']])('answers 400 to %s', async (query) => {
    expect((await stack.api.get(`/dates?${query}`, staff.ADMIN)).status).toBe(400);
  });
});

describe("one appointment and a patient's appointments", () => {
  it('shows an appointment to staff and to its patient only (GET /dates/id/:id)', async () => {
    const [patient, other] = [freshPatient(), freshPatient()];
    const { body } = await bookFor(patient, slots.next());
    expect((await stack.api.get(`/dates/id/${body.id}`, staff.DOCTOR)).body).toEqual(body);
    expect((await stack.api.get(`/dates/id/${body.id}`, patient.token)).body).toEqual(body);
    expect((await stack.api.get(`/dates/id/${body.id}`, other.token)).status).toBe(404);
    expect((await stack.api.get(`/dates/id/${UNKNOWN_ID}`, staff.ADMIN)).status).toBe(404);
    expect((await stack.api.get('/dates/id/not-an-id', staff.ADMIN)).status).toBe(400);
  });

  it('lists the active appointments and the full history of a patient, newest first', async () => {
    const patient = freshPatient();
    const [first, second, third] = [slots.next(), slots.next(), slots.next()];
    const a = await bookFor(patient, first);
    await stack.api.delete(`/dates/cancel/${a.body.id}`, staff.DOCTOR);
    const b = await bookFor(patient, second);
    await stack.api.delete(`/dates/delete/${b.body.id}`, staff.ADMIN);
    const c = await bookFor(patient, third);

    const active = await stack.api.get(`/dates/userid/${patient.id}`, staff.DOCTOR);
    expect(active.body).toEqual({
      user: {
        _id: patient.id,
        id: patient.id,
        name: patient.name,
        email: patient.email,
        phone: patient.phone,
        rol: 'PACIENT',
      },
      appointment: [c.body],
    });
    expect((await stack.api.get(`/dates/userid/${patient.id}`, patient.token)).body).toEqual(active.body);

    const history = await stack.api.get(`/dates/history/userid/${patient.id}`, staff.ADMIN);
    expect(history.body.user).toEqual(active.body.user);
    expect(history.body.appointments.map((x: { id: string; status: string }) => [x.id, x.status])).toEqual([
      [c.body.id, 'booked'],
      [b.body.id, 'deleted'],
      [a.body.id, 'cancelled'],
    ]);
    expect((await stack.api.get(`/dates/history/userid/${patient.id}`, patient.token)).status).toBe(200);
  });

  it('answers 404 to a patient asking about someone else, and for unknown patients', async () => {
    const [patient, other] = [freshPatient(), freshPatient()];
    expect((await stack.api.get(`/dates/userid/${other.id}`, patient.token)).status).toBe(404);
    expect((await stack.api.get(`/dates/history/userid/${other.id}`, patient.token)).status).toBe(404);
    expect((await stack.api.get(`/dates/userid/${UNKNOWN_ID}`, staff.DOCTOR)).status).toBe(404);
  });
});

describe('cancelling and deleting by id', () => {
  it('cancels (doctor) with {message, id, status}, e-mails a notice, and refuses to cancel twice', async () => {
    const patient = freshPatient();
    const { body } = await bookFor(patient, slots.next());
    const response = await stack.api.delete(`/dates/cancel/${body.id}`, staff.DOCTOR);
    expect(response).toMatchObject({
      status: 200,
      body: { message: 'Cita cancelada', id: body.id, status: 'cancelled' },
    });
    expect((await stack.api.delete(`/dates/cancel/${body.id}`, staff.DOCTOR)).status).toBe(409);
    const mails = await stack.mail.waitForMessagesTo(patient.email, 2);
    const notice = mails.find((m) => m.Subject.startsWith('Cita cancelada'))!;
    expect(notice.Text).toMatch(/El centro ha cancelado (tu|su) cita/);
    const ics = await stack.mail.attachment(notice.ID, notice.Attachments[0]!.PartID);
    expect(ics).toContain('\r\nMETHOD:CANCEL\r\n');
    expect(ics).toContain(`\r\nUID:appointment-${body.id}@crm.events\r\n`);
  });

  it('deletes (admin) with {message, id, status} and frees the slot', async () => {
    const date = slots.next();
    const { body } = await bookFor(freshPatient(), date);
    const response = await stack.api.delete(`/dates/delete/${body.id}`, staff.ADMIN);
    expect(response.body).toEqual({ message: 'Cita eliminada', id: body.id, status: 'deleted' });
    expect((await bookFor(freshPatient(), date)).status).toBe(201);
    expect((await stack.api.delete(`/dates/delete/${UNKNOWN_ID}`, staff.ADMIN)).status).toBe(404);
  });
});

describe('the patients read model', () => {
  it("asks the auth service (with the caller's token) for a patient it does not know, and remembers them", async () => {
    const patient = freshPatient();
    await service().models.Patient.deleteOne({ _id: patient.id });
    const response = await bookFor(patient, slots.next(), staff.ADMIN);
    expect(response.status).toBe(201);
    expect(response.body.user).toEqual({
      id: patient.id,
      name: patient.name,
      email: patient.email,
      phone: patient.phone,
    });
    expect(await service().models.Patient.findById(patient.id).lean()).toMatchObject({
      email: patient.email,
    });
  });

  it('follows profile changes from the auth service into the active appointment', async () => {
    // A patient registered at the kiosk without a phone, booked by staff, completed at the kiosk later.
    const email = uniqueEmail('sinmovil');
    const created = await stack.api.post(
      '/users/onboarding',
      { email, name: 'Paciente Sin Móvil', operation: 'create' },
      staff.SERVICE_ACCOUNT,
    );
    expect(created.status).toBe(201);
    const patient = { id: created.body.data.id as string } as TestPatient;
    const { body } = await bookFor(patient, slots.next());
    const updated = await stack.api.post(
      '/users/onboarding',
      { email, phone: '699 000 111', operation: 'update', code: await codes(email) },
      staff.SERVICE_ACCOUNT,
    );
    expect(updated.status).toBe(200);
    const appointment = await eventually(async () => {
      const current = await stack.api.get(`/dates/id/${body.id}`, staff.DOCTOR);
      return current.body.user.phone ? current.body : undefined;
    });
    expect(appointment.user).toEqual({
      id: patient.id,
      name: 'Paciente Sin Móvil',
      email,
      phone: '34699000111',
    });
    expect(await service().models.Patient.findById(patient.id).lean()).toMatchObject({
      name: 'Paciente Sin Móvil',
      phone: '34699000111',
    });
  });
});
