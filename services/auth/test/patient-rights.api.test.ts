/**
 * The patient's rights (docs/product/rights-and-access-trail.md#patient-rights): a copy of my data (JSON and
 * PDF) with my profile, appointments and clinical records; the erasure of my account (password asked):
 * contact data gone at once, sign-in and sessions refused, the booked appointment cancelled, the rest
 * pseudonymised; clinical records kept under a pseudonym and deleted by the retention sweep. Real
 * infrastructure.
 */
import { eventually } from '@crm/testing';
import { PATIENT_PASSWORD } from '../../../test-support/patients';
import { slotAllocator } from '../../../test-support/slots';
import { emailedKioskCode } from '../../../test-support/kiosk-codes';
import { startStack, type Stack } from '../../../test-support/stack';
import type { AppointmentsService } from '../../appointments/src/app';
import type { RecordsService } from '../../records/src/app';
import { metadataOf } from '../../records/test/factories/metadata';
import {
  bookFor,
  registerPatient,
  staffOf,
  type Patient,
  type Staff,
} from '../../records/test/factories/people';

let stack: Stack;
let doctor: Staff;
let kiosk: Staff;
const slots = slotAllocator(12);

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'config', 'appointments', 'records'] });
  ({ DOCTOR: doctor, SERVICE_ACCOUNT: kiosk } = await staffOf(stack));
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** A patient with a booked appointment and, for an earlier one, a clinical record. */
async function patientWithHistory(name: string) {
  const patient = await registerPatient(stack, doctor.token, name);
  // Seen today (a walk-in, inside its check-in window, so that its record marks it attended).
  const code = await emailedKioskCode(stack, kiosk.token, patient.email);
  const walkIn = await stack.api.post('/dates/service', { pacientId: patient.id, code }, kiosk.token);
  expect(walkIn.status).toBe(201);
  const examined = { id: walkIn.body.id as string, date: walkIn.body.date as string };
  const record = await stack.api.post(
    '/records',
    { userId: patient.id, dateId: examined.id, metadata: metadataOf() },
    doctor.token,
  );
  expect(record.status).toBe(201);
  // The record marks that one attended; the next one stays booked.
  await eventually(async () =>
    (await stack.api.get(`/dates/id/${examined.id}`, doctor.token)).body.status === 'attended'
      ? true
      : undefined,
  );
  const booked = await bookFor(stack, doctor.token, patient, slots.next());
  return { patient, examined, booked, recordId: record.body.id as string };
}

const eraseAs = (patient: Patient, password: string) =>
  stack.api.delete('/users/me', patient.token, { password });

describe('GET /users/me/export', () => {
  it('gives the patient their profile, appointments and records, as JSON and as a PDF', async () => {
    const { patient, examined, booked, recordId } = await patientWithHistory('Carmen Export Díaz');
    const json = await stack.api.get('/users/me/export', patient.token);
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toMatch(
      /^attachment; filename="?mis-datos-\d{4}-\d{2}-\d{2}\.json"?$/,
    );
    expect(json.body.profile).toMatchObject({ id: patient.id, name: 'Carmen Export Díaz' });
    expect(json.body.appointments.map((a: { id: string }) => a.id).sort()).toEqual(
      [examined.id, booked.id].sort(),
    );
    expect(json.body.records).toEqual([
      expect.objectContaining({
        id: recordId,
        doctor: 'Doctor',
        fields: expect.arrayContaining([{ label: 'Resultado', value: 'Apto' }]),
      }),
    ]);

    const pdf = await fetch(`${stack.gatewayUrl}/api/v1/users/me/export?format=pdf`, {
      headers: { authorization: `Bearer ${patient.token}` },
    });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.length).toBeGreaterThan(1000);

    expect((await stack.api.get('/users/me/export', doctor.token)).status).toBe(403);
    expect((await stack.api.get('/users/me/export?format=xml', patient.token)).status).toBe(400);
  });
});

describe('DELETE /users/me', () => {
  it('asks for the password, then erases the account: contact data gone, sessions and sign-in refused', async () => {
    const { patient, booked, examined, recordId } = await patientWithHistory('Tomás Borrado Pérez');
    const email = (await stack.api.get('/auth/currentUser', patient.token)).body.profile.email as string;

    const wrong = await eraseAs(patient, 'no-es-la-clave');
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors).toEqual([{ field: 'password', message: 'La contraseña no es correcta' }]);
    expect((await stack.api.delete('/users/me', patient.token)).status).toBe(400);

    const erased = await eraseAs(patient, PATIENT_PASSWORD);
    expect(erased.status).toBe(200);
    expect((await stack.api.get('/auth/currentUser', patient.token)).status).toBe(401);
    expect((await stack.api.post('/auth/signIn', { email, password: PATIENT_PASSWORD })).status).toBe(401);

    // Staff lists and lookups no longer show who it was.
    const listed = await stack.api.get(`/users?search=${encodeURIComponent(email)}`, doctor.token);
    expect(listed.body.users).toEqual([]);
    const seen = (await stack.api.get(`/users/${patient.id}`, doctor.token)).body.data;
    expect(seen).toMatchObject({ name: 'Paciente eliminado' });
    expect(seen.phone).toBeUndefined();
    expect(seen.email).not.toBe(email);

    // The booked appointment is cancelled; the history keeps no name.
    await eventually(async () =>
      (await stack.api.get(`/dates/id/${booked.id}`, doctor.token)).body.status === 'cancelled'
        ? true
        : undefined,
    );
    const appointments = stack.components.appointments!.handle as AppointmentsService;
    await eventually(async () =>
      (await appointments.models.Appointment.countDocuments({
        pacientId: patient.id,
        'user.name': 'Tomás Borrado Pérez',
      })) === 0
        ? true
        : undefined,
    );
    expect((await stack.api.get(`/dates/id/${examined.id}`, doctor.token)).body.status).toBe('attended');

    // The record stays, pseudonymised, with its content, until the retention sweep takes it.
    const record = await eventually(async () => {
      const body = (await stack.api.get(`/records/${recordId}`, doctor.token)).body;
      return body.user?.name === 'Paciente eliminado' ? body : undefined;
    });
    expect(record.metadata.result.value).toBe('Apto');

    // Nor does any search find the former name: the stored search keys went with it.
    for (const [path, field] of [
      ['/users/pacients?includeErased=true&limit=100&search=Borrado', 'pacients'],
      ['/dates?status=all&limit=100&search=tomas%20borrado', 'dates'],
      ['/records?limit=100&search=Borrado', 'records'],
    ] as const) {
      const found = await stack.api.get(path, doctor.token);
      expect([path, found.status, found.body[field]]).toEqual([path, 200, []]);
    }
    const records = stack.components.records!.handle as RecordsService;
    expect(await records.erasure.deleteExpired(new Date(Date.now() - 60_000))).toBe(0);
    expect(await records.erasure.deleteExpired(new Date(Date.now() + 60_000))).toBe(1);
    expect((await stack.api.get(`/records/${recordId}`, doctor.token)).status).toBe(404);
  });
});

describe('GET /users/pacients and erased accounts', () => {
  it('leaves erased accounts out of the patient list unless includeErased=true', async () => {
    const patient = await registerPatient(stack, doctor.token, 'Elvira Olvidada Suárez');
    expect((await eraseAs(patient, PATIENT_PASSWORD)).status).toBe(200);
    const search = encodeURIComponent(`erased-${patient.id}`);

    const hidden = await stack.api.get(`/users/pacients?search=${search}`, doctor.token);
    expect(hidden.status).toBe(200);
    expect(hidden.body).toMatchObject({ pacients: [], total: 0 });
    const byName = await stack.api.get('/users/pacients?search=Paciente%20eliminado&limit=100', doctor.token);
    expect(byName.body.pacients.map((p: { _id: string }) => p._id)).not.toContain(patient.id);

    const asked = await stack.api.get(`/users/pacients?search=${search}&includeErased=true`, doctor.token);
    expect(asked.body.pacients).toEqual([
      expect.objectContaining({ _id: patient.id, name: 'Paciente eliminado' }),
    ]);
    const users = await stack.api.get(`/users?search=${search}&includeErased=true`, doctor.token);
    expect(users.body.users).toHaveLength(1);

    const wrong = await stack.api.get('/users/pacients?includeErased=quizas', doctor.token);
    expect(wrong.status).toBe(400);
  }, 60_000);
});
