import { RECORDS_VIEW, type RecordView, type ViewConfigView } from '@crm/contracts';
import { eventually } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import type { RecordsService } from '../src/app';
import { DRIVING_RENEWAL, metadataOf } from './factories/metadata';
import { bookFor, registerPatient, staffOf, type Staff } from './factories/people';

let stack: Stack;
let service: RecordsService;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
const slots = slotAllocator(14);

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'appointments', 'config', 'records'] });
  service = stack.components.records!.handle as RecordsService;
  staff = await staffOf(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

async function newAppointment(name: string) {
  const patient = await registerPatient(stack, staff.DOCTOR.token, name);
  return { patient, appointment: await bookFor(stack, staff.DOCTOR.token, patient, slots.next()) };
}

it('validates records against the configuration an admin just stored, and keeps fields it retired', async () => {
  // A record made with the seeded version 1.
  const before = await newAppointment('Paciente Versión Uno');
  const first = await stack.api.post<RecordView>(
    '/records',
    { userId: before.patient.id, dateId: before.appointment.id, metadata: metadataOf() },
    staff.DOCTOR.token,
  );
  expect(first.status).toBe(201);
  expect(first.body.configVersion).toBe(1);
  expect(service.viewConfigs.cachedVersion(RECORDS_VIEW)).toBe(1);

  // Version 2: "observations" is gone and a required "allergies" text appears.
  const current = (
    await stack.api.get<ViewConfigView>(
      `/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`,
      staff.ADMIN.token,
    )
  ).body;
  const fields = [
    ...current.fields.filter((field) => field.name !== 'observations'),
    { name: 'allergies', label: 'Alergias', fieldType: 'TEXT', required: true },
  ];
  const stored = await stack.api.put<ViewConfigView>(
    `/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`,
    { fields },
    staff.ADMIN.token,
  );
  expect(stored.status).toBe(200);
  expect(stored.body.version).toBe(2);

  // The event drops the records service's cached version 1 (well within a second).
  await eventually(
    async () => (service.viewConfigs.cachedVersion(RECORDS_VIEW) === undefined ? true : undefined),
    2000,
    'cache dropped',
  );

  const after = await newAppointment('Paciente Versión Dos');
  const { observations: _gone, ...withoutObservations } = DRIVING_RENEWAL;
  const missing = await stack.api.post(
    '/records',
    { userId: after.patient.id, dateId: after.appointment.id, metadata: metadataOf(withoutObservations) },
    staff.DOCTOR.token,
  );
  expect(missing).toMatchObject({
    status: 400,
    body: { errors: [{ field: 'metadata.allergies', message: 'El campo «Alergias» es obligatorio' }] },
  });
  const retiredField = await stack.api.post(
    '/records',
    {
      userId: after.patient.id,
      dateId: after.appointment.id,
      metadata: metadataOf({ ...DRIVING_RENEWAL, allergies: 'Ninguna' }),
    },
    staff.DOCTOR.token,
  );
  expect(retiredField).toMatchObject({ status: 400, body: { message: 'Campo desconocido: observations' } });
  const created = await stack.api.post<RecordView>(
    '/records',
    {
      userId: after.patient.id,
      dateId: after.appointment.id,
      metadata: metadataOf({ ...withoutObservations, allergies: 'Ninguna' }),
    },
    staff.DOCTOR.token,
  );
  expect(created.status).toBe(201);
  expect(created.body.configVersion).toBe(2);
  expect(created.body.metadata.allergies).toEqual({
    name: 'allergies',
    label: 'Alergias',
    type: 'TEXT',
    value: 'Ninguna',
  });

  // Updating the version-1 record: the new required field is needed, the retired one is kept.
  const update = (metadata: unknown) =>
    stack.api.put<RecordView>(`/records/${first.body.id}`, { metadata }, staff.DOCTOR.token);
  expect((await update({ weight: { value: 80 } })).status).toBe(400);
  const updated = await update({ weight: { value: 80 }, allergies: { value: 'Penicilina' } });
  expect(updated.status).toBe(200);
  expect(updated.body.configVersion).toBe(2);
  expect(updated.body.metadata.observations).toEqual(first.body.metadata.observations);
  expect(updated.body.metadata.allergies!.value).toBe('Penicilina');
  expect(updated.body.metadata.weight!.value).toBe(80);
});
