import { CENTRE_PROFILE_SEED, type AuditEntryView, type AuditPage, type MyAuditPage } from '@crm/contracts';
import { eventually } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { emailedKioskCode } from '../../../test-support/kiosk-codes';
import { startStack, type Stack } from '../../../test-support/stack';
import { renewalWith } from '../../records/test/factories/metadata';
import {
  bookFor,
  registerPatient,
  staffOf,
  type Appointment,
  type Patient,
  type Staff,
} from '../../records/test/factories/people';

/**
 * The producers of the trail: real calls to appointments, records and config through the
 * gateway, recorded by each service through the runtime's trail (its own audit_outbox and relay),
 * and read back from the audit service — who, what, about whom; never the record's content.
 */
let stack: Stack;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
let patient: Patient;
let appointment: Appointment;
let recordId: string;
const slots = slotAllocator(40);
// A value typed into the record that must never reach the trail.
const SECRET = 'Observación-confidencial-7781';

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'appointments', 'config', 'records', 'audit'],
  });
  staff = await staffOf(stack);
  patient = await registerPatient(stack, staff.DOCTOR.token, 'Paciente Del Registro De Accesos');
  appointment = await bookFor(stack, staff.DOCTOR.token, patient, slots.next());
  const metadata = renewalWith({ observations: SECRET });
  const created = await stack.api.post(
    '/records',
    { userId: patient.id, dateId: appointment.id, metadata },
    staff.DOCTOR.token,
  );
  expect(created.status).toBe(201);
  recordId = created.body.id;
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

const trailOf = (query: string) => stack.api.get<AuditPage>(`/audit?${query}&limit=100`, staff.ADMIN.token);

/** Waits until the trail about the patient holds an entry matching `expected` (the relay publishes after the answer). */
const entryAbout = (expected: Partial<AuditEntryView>): Promise<AuditEntryView> =>
  eventually(
    async () => {
      const response = await trailOf(`patientId=${patient.id}`);
      return response.body.entries?.find((entry) =>
        Object.entries(expected).every(([key, value]) => entry[key as keyof AuditEntryView] === value),
      );
    },
    10_000,
    `an entry ${JSON.stringify(expected)}`,
  );

describe('staff accesses recorded by their services', () => {
  it('a doctor reading an appointment, the list and a record: entries about the patient, by the doctor, without the content', async () => {
    expect((await stack.api.get(`/dates/id/${appointment.id}`, staff.DOCTOR.token)).status).toBe(200);
    // Every status: the record created in beforeAll has marked the appointment attended.
    const list = await stack.api.get(`/dates?status=all&limit=100`, staff.DOCTOR.token);
    expect(list.status).toBe(200);
    expect(list.body.dates.map((date: { pacientId: string }) => date.pacientId)).toContain(patient.id);
    expect((await stack.api.get(`/records/${recordId}`, staff.DOCTOR.token)).status).toBe(200);

    const read = await entryAbout({ action: 'appointment.read', resourceId: appointment.id });
    expect(read).toMatchObject({
      actorId: staff.DOCTOR.id,
      actorRol: 'DOCTOR',
      resource: 'appointment',
      patientId: patient.id,
    });
    const listed = await entryAbout({ action: 'appointment.list', actorId: staff.DOCTOR.id });
    expect(listed).toMatchObject({ resource: 'appointment', patientId: patient.id });
    const recordRead = await entryAbout({ action: 'record.read', resourceId: recordId });
    expect(recordRead).toMatchObject({ actorId: staff.DOCTOR.id, resource: 'record', patientId: patient.id });
    const created = await entryAbout({ action: 'record.create', resourceId: recordId });
    expect(created.actorId).toBe(staff.DOCTOR.id);
    // The booking by the doctor in beforeAll.
    await entryAbout({ action: 'appointment.book', resourceId: appointment.id });

    // Never the content: the whole trail about the patient, as CSV too, holds no field value.
    const all = await trailOf(`patientId=${patient.id}`);
    expect(JSON.stringify(all.body)).not.toContain(SECRET);
    const csv = await fetch(`${stack.gatewayUrl}/api/v1/audit/export.csv?patientId=${patient.id}`, {
      headers: { authorization: `Bearer ${staff.ADMIN.token}` },
    });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain(recordId);
    expect(text).not.toContain(SECRET);
  });

  it('the patient sees those accesses in /audit/mine (by name and role), and their own reads are not recorded', async () => {
    // The patient's own read of their appointment: not an access by the staff.
    expect((await stack.api.get(`/dates/id/${appointment.id}`, patient.token)).status).toBe(200);
    await entryAbout({ action: 'record.read', resourceId: recordId });
    const mine = await stack.api.get<MyAuditPage>('/audit/mine?limit=100', patient.token);
    expect(mine.status).toBe(200);
    expect(mine.body.entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        'appointment.book',
        'appointment.read',
        'appointment.list',
        'record.create',
        'record.read',
      ]),
    );
    for (const entry of mine.body.entries) {
      expect(entry).not.toHaveProperty('actorId');
      expect(['DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT']).toContain(entry.actorRol);
    }
    // The patient's own read is not in the trail (their sign-in is).
    const byPatient = await trailOf(`actorId=${patient.id}`);
    expect(byPatient.body.entries.map((entry) => entry.action)).toEqual(['auth.signin']);
  });

  it('an update of the record by an admin is recorded (not its values)', async () => {
    const updated = await stack.api.put(
      `/records/${recordId}`,
      { metadata: renewalWith({ observations: `${SECRET}-2` }) },
      staff.ADMIN.token,
    );
    expect(updated.status).toBe(200);
    const update = await entryAbout({ action: 'record.update', resourceId: recordId });
    expect(update).toMatchObject({ actorId: staff.ADMIN.id, actorRol: 'ADMIN', resource: 'record' });
    expect(JSON.stringify((await trailOf(`patientId=${patient.id}`)).body)).not.toContain(SECRET);
  });

  it('staff and kiosk reads of patients in the auth service: user.list naming the patients listed, user.read, user.update', async () => {
    const email = (
      await stack.api.get<{ data: { email: string } }>(`/users/${patient.id}`, staff.DOCTOR.token)
    ).body.data.email;
    const listed = await stack.api.get(
      `/users/pacients?search=${encodeURIComponent(email)}`,
      staff.ADMIN.token,
    );
    expect(listed.status).toBe(200);
    const fetched = await stack.api.get(
      `/users/fetch?email=${encodeURIComponent(email)}`,
      staff.DOCTOR.token,
    );
    expect(fetched.status).toBe(200);
    // The kiosk reads a patient only once the person proved the account is theirs.
    const code = await emailedKioskCode(stack, staff.SERVICE_ACCOUNT.token, email);
    const verified = await stack.api.post(
      '/users/onboarding/verify',
      { email, code },
      staff.SERVICE_ACCOUNT.token,
    );
    expect(verified).toMatchObject({ status: 200, body: { pacientId: patient.id } });
    const onboarded = await stack.api.post(
      '/users/onboarding',
      { email, phone: '612 000 111', operation: 'update', code },
      staff.SERVICE_ACCOUNT.token,
    );
    expect(onboarded.status).toBe(200);

    const byKiosk = await entryAbout({ action: 'user.read', actorId: staff.SERVICE_ACCOUNT.id });
    expect(byKiosk).toMatchObject({ actorRol: 'SERVICE_ACCOUNT', resource: 'user', resourceId: patient.id });
    const list = await entryAbout({ action: 'user.list', actorId: staff.ADMIN.id });
    expect(list).toMatchObject({ actorRol: 'ADMIN', resource: 'user', patientId: patient.id });
    await entryAbout({ action: 'user.read', actorId: staff.DOCTOR.id });
    await entryAbout({ action: 'user.update', actorId: staff.SERVICE_ACCOUNT.id });
  });

  it("a refused booking that names the patient's other appointment is recorded as a read of it", async () => {
    const holder = await registerPatient(stack, staff.DOCTOR.token, 'Paciente Con Otra Cita');
    const held = await bookFor(stack, staff.DOCTOR.token, holder, slots.next());
    const refused = await stack.api.post(
      '/dates/admin',
      { date: slots.next(), pacientId: holder.id },
      staff.ADMIN.token,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.appointment).toMatchObject({ id: held.id, date: held.date });
    const entries = await eventually(async () => {
      const page = await trailOf(`patientId=${holder.id}&actorId=${staff.ADMIN.id}`);
      return page.body.entries.length > 0 ? page.body.entries : undefined;
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: 'appointment.read', resourceId: held.id, actorRol: 'ADMIN' });
  });

  it('sign-ins, failed and successful, and sign-outs: by the account (or anonymous), about no patient', async () => {
    const [email, password] = ['admin@stack.test', 'Admin1234!'];
    expect((await stack.api.post('/auth/signIn', { email, password: 'no-es-esta' })).status).toBe(401);
    const token = await stack.signIn(email, password);
    expect((await stack.api.post('/auth/signOut', {}, token)).status).toBe(200);
    const entriesOf = async (query: string) =>
      eventually(async () => {
        const page = await trailOf(query);
        return page.body.entries.length > 0 ? page.body.entries : undefined;
      });
    const failed = await entriesOf('action=auth.signin&actorId=anonymous');
    expect(failed[0]).toMatchObject({ actorRol: 'ANONYMOUS', outcome: 'failure', patientId: null });
    const success = await entriesOf(`action=auth.signin&actorId=${staff.ADMIN.id}`);
    expect(success[0]).toMatchObject({ actorRol: 'ADMIN', resourceId: staff.ADMIN.id, outcome: 'success' });
    const signOut = await entriesOf(`action=auth.signout&actorId=${staff.ADMIN.id}`);
    expect(signOut[0]).toMatchObject({ actorRol: 'ADMIN', patientId: null });
  });

  it('an admin changing the centre profile: config.centre.update, about no patient', async () => {
    const response = await stack.api.put('/config/centre', CENTRE_PROFILE_SEED, staff.ADMIN.token);
    expect(response.status).toBe(200);
    const entries = await eventually(async () => {
      const trail = await trailOf(`action=config.centre.update&actorId=${staff.ADMIN.id}`);
      return trail.body.entries.length > 0 ? trail.body.entries : undefined;
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorRol: 'ADMIN', resource: 'centre', patientId: null });
  });
});
