import type { RecordView, RecordsPage } from '@crm/contracts';
import { listenForMessages, outboxDrained } from '@crm/testing';
import { TEXT_LENGTH_MESSAGE } from '@crm/view-config';
import { slotAllocator } from '../../../test-support/slots';
import { emailedKioskCode } from '../../../test-support/kiosk-codes';
import { startStack, type Stack } from '../../../test-support/stack';
import type { RecordsService } from '../src/app';
import { metadataOf, renewalWith } from './factories/metadata';
import {
  bookFor,
  registerPatient,
  staffOf,
  type Appointment,
  type Patient,
  type Staff,
} from './factories/people';

let stack: Stack;
let service: RecordsService;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
const slots = slotAllocator(10);
let patientCount = 0;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'appointments', 'config', 'records'] });
  service = stack.components.records!.handle as RecordsService;
  staff = await staffOf(stack);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** A new patient with an appointment booked by the doctor. */
async function patientWithAppointment(
  name = `Paciente Registro ${++patientCount}`,
): Promise<{ patient: Patient; appointment: Appointment }> {
  const patient = await registerPatient(stack, staff.DOCTOR.token, name);
  return { patient, appointment: await bookFor(stack, staff.DOCTOR.token, patient, slots.next()) };
}

const createRecord = (body: unknown, token = staff.DOCTOR.token) =>
  stack.api.post<RecordView & { message: string; errors?: unknown[] }>('/records', body, token);

async function recordFor(metadata = metadataOf(), token = staff.DOCTOR.token) {
  const { patient, appointment } = await patientWithAppointment();
  const response = await createRecord({ userId: patient.id, dateId: appointment.id, metadata }, token);
  expect(response.status).toBe(201);
  return { patient, appointment, record: response.body };
}

const value = (record: RecordView, name: string) => record.metadata[name]?.value;

describe('POST /records', () => {
  it('creates the record of an appointment with the patient, date and doctor from their services, and 201', async () => {
    const { patient, appointment } = await patientWithAppointment('Lucía Fernández Ortega');
    const response = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: metadataOf(),
      // Identity in the body is ignored: it comes from the appointment and the caller's token.
      doctor: { id: 'x', name: 'Dr. Impostor' },
      user: { name: 'Otra persona' },
      date: { date: '2000-01-01T00:00:00.000Z' },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      userId: patient.id,
      dateId: appointment.id,
      doctor: { id: staff.DOCTOR.id, name: 'Doctor' },
      user: { name: 'Lucía Fernández Ortega' },
      date: { date: appointment.date },
      configVersion: 1,
      view: 'doctor/appointments/:id',
    });
    expect(response.body._id).toBe(response.body.id);
    // The record of an appointment is named after it: one record per appointment by construction.
    expect(response.body.id).toBe(appointment.id);
    expect(response.body.metadata.certificateType).toEqual({
      name: 'certificateType',
      label: 'Tipo de certificado',
      type: 'PICKLIST',
      value: 'Permiso de conducir',
      selectedLabel: 'Permiso de conducir',
    });
    expect(response.body.metadata.weight).toEqual({
      name: 'weight',
      label: 'Peso (kg)',
      type: 'NUMBER',
      parseOutput: 'number',
      value: 78,
    });
    const tenYears = new Date(appointment.date);
    tenYears.setUTCFullYear(tenYears.getUTCFullYear() + 10);
    expect(response.body.metadata.validity).toMatchObject({
      parseOutput: 'date',
      value: tenYears.toISOString(),
      selectedLabel: '10 años',
    });

    const stored = await stack.api.get<RecordView>(`/records/${response.body.id}`, staff.ADMIN.token);
    expect(stored).toMatchObject({ status: 200, body: response.body });
  });

  it('prices a 10-year driving renewal at 53.58 EUR net and 54 EUR gross', async () => {
    const { record } = await recordFor();
    expect(record.metadata.checkupFee).toMatchObject({ value: 19, priceType: 'BASE', currency: 'EUR' });
    expect(record.metadata.dgtFee).toMatchObject({
      value: 24.58,
      priceType: 'BASE',
      selectedLabel: '10 años — 24,58 €',
    });
    expect(record.metadata.dgtManagement).toMatchObject({ value: 10, priceType: 'BASE' });
    // The totals exactly as stored: number fields with their price type and currency, nothing else.
    expect([record.metadata.net, record.metadata.total]).toEqual(
      [
        ['net', 'Importe neto', 53.58, 'NET'],
        ['total', 'Total', 54, 'GROSS'],
      ].map(([name, label, value, priceType]) => ({
        name,
        label,
        type: 'NUMBER',
        value,
        priceType,
        currency: 'EUR',
      })),
    );
  });

  it('applies a 21 % tax on the net and rounds the gross: 53.58 + 11.25 → 65', async () => {
    const { record } = await recordFor(renewalWith({ taxType: 'Porcentaje', tax: '21' }));
    expect(value(record, 'net')).toBe(53.58);
    expect(value(record, 'tax')).toBe(21);
    expect(value(record, 'total')).toBe(65);
  });

  it('adds a flat tax, the extra report and subtracts a discount', async () => {
    const { record } = await recordFor(
      renewalWith({ taxType: 'Fijo', tax: '2,5', extraReport: '10', discount: '3.58' }),
    );
    expect(value(record, 'net')).toBe(60);
    expect(value(record, 'total')).toBe(63); // 60 + 2.5 = 62.5 → 63
  });

  it('stores the server-computed totals when the client sends tampered ones', async () => {
    const { record } = await recordFor(renewalWith({ net: 1, total: 0.5 }));
    expect(value(record, 'net')).toBe(53.58);
    expect(value(record, 'total')).toBe(54);
  });

  it.each(['Licencia de armas', 'Estudios'])(
    'prices a "%s" check-up at the check-up only: the DGT fees a client sends are not stored nor counted',
    async (certificateType) => {
      const { record } = await recordFor(
        // What a tampered or stale form could send: driving-licence fees and its totals.
        renewalWith({ certificateType, licenceGroup: 'GRUPO_1', net: 53.58, total: 54 }),
      );
      expect(record.metadata.dgtFee).toBeUndefined();
      expect(record.metadata.dgtManagement).toBeUndefined();
      expect(record.metadata.licenceGroup).toBeUndefined();
      expect(value(record, 'checkupFee')).toBe(19);
      expect(value(record, 'net')).toBe(19);
      expect(value(record, 'total')).toBe(19);
    },
  );

  it('publishes records.record.created.v1 with references only, never the clinical content', async () => {
    const listener = await listenForMessages<{ name: string; data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      'records.record.*.v1',
    );
    try {
      const { record, patient, appointment } = await recordFor(
        renewalWith({ observations: 'TEXTO-CLINICO-SECRETO' }),
      );
      const event = await listener.waitFor((message) => message.body.data.id === record.id);
      expect(event.routingKey).toBe('records.record.created.v1');
      // References, plus the billing figures the reporting read model counts (no clinical field).
      expect(event.body.data).toEqual({
        id: record.id,
        userId: patient.id,
        dateId: appointment.id,
        doctorId: staff.DOCTOR.id,
        configVersion: 1,
        billing: {
          gross: 54,
          currency: 'EUR',
          certificateType: 'Permiso de conducir',
          revision: 1,
          appointmentDate: appointment.date,
        },
      });
      expect(JSON.stringify(event.body)).not.toContain('TEXTO-CLINICO-SECRETO');
      // The relay removes the entry right after the broker's confirm (which may come after delivery).
      await outboxDrained(service.models.Revision, { recordId: record.id });
    } finally {
      await listener.close();
    }
  });

  it('lets an admin create a record too, as its doctor', async () => {
    const { record } = await recordFor(metadataOf(), staff.ADMIN.token);
    expect(record.doctor).toEqual({ id: staff.ADMIN.id, name: 'Administrador' });
  });

  it('answers 400 "0 and 100 characters" to a 101-character text, and accepts 100', async () => {
    const { patient, appointment } = await patientWithAppointment();
    const tooLong = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: renewalWith({ observations: 'a'.repeat(101) }),
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toBe(TEXT_LENGTH_MESSAGE);
    expect(tooLong.body.message).toContain('0 and 100 characters');
    expect(tooLong.body.errors).toEqual([{ field: 'metadata.observations', message: TEXT_LENGTH_MESSAGE }]);
    const justRight = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: renewalWith({ observations: 'a'.repeat(100) }),
    });
    expect(justRight.status).toBe(201);
  });

  it('answers 400 to a field the configuration does not have', async () => {
    const { patient, appointment } = await patientWithAppointment();
    const response = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: renewalWith({ favouriteColour: 'azul' }),
    });
    expect(response).toMatchObject({
      status: 400,
      body: {
        message: 'Campo desconocido: favouriteColour',
        errors: [{ field: 'metadata.favouriteColour' }],
      },
    });
  });

  it.each([
    [
      'a missing required field',
      renewalWith({ result: undefined }),
      'metadata.result',
      'El campo «Resultado» es obligatorio',
    ],
    [
      'a text in a number field',
      renewalWith({ weight: 'setenta' }),
      'metadata.weight',
      'El campo «Peso (kg)» debe ser un número',
    ],
    [
      'an object in a number field',
      renewalWith({ weight: { kg: 70 } }),
      'metadata.weight',
      'El campo «Peso (kg)» debe ser un número',
    ],
    [
      'a number in a text field',
      renewalWith({ bloodPressure: 120 }),
      'metadata.bloodPressure',
      'El campo «Tensión arterial (mmHg)» debe ser un texto',
    ],
    [
      'a value outside the options',
      renewalWith({ result: 'Regular' }),
      'metadata.result',
      'El valor de «Resultado» no es una de sus opciones',
    ],
    [
      'a DGT fee outside the options',
      renewalWith({ dgtFee: '30' }),
      'metadata.dgtFee',
      'El valor de «Tasa DGT según vigencia» no es una de sus opciones',
    ],
    [
      'a negative price',
      renewalWith({ checkupFee: -19 }),
      'metadata.checkupFee',
      'El importe de «Reconocimiento médico» no puede ser negativo',
    ],
    [
      'restrictions missing when restricted',
      renewalWith({ result: 'Apto con restricciones' }),
      'metadata.restrictions',
      'El campo «Restricciones o adaptaciones» es obligatorio',
    ],
    [
      'the licence group missing for a driving licence',
      renewalWith({ licenceGroup: undefined }),
      'metadata.licenceGroup',
      'El campo «Grupo de permiso» es obligatorio',
    ],
    [
      'an entry named differently from its key',
      { ...metadataOf(), weight: { name: 'height', value: 70 } },
      'metadata.weight',
      'El nombre del campo no coincide con su clave: weight',
    ],
  ])('answers 400 to %s, naming the field', async (_label, metadata, field, message) => {
    const { patient, appointment } = await patientWithAppointment();
    const response = await createRecord({ userId: patient.id, dateId: appointment.id, metadata });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message, errors: [{ field, message }] });
  });

  it('stores restrictions only when the result needs them', async () => {
    const restricted = await recordFor(
      renewalWith({ result: 'Apto con restricciones', restrictions: 'Uso obligatorio de gafas' }),
    );
    expect(restricted.record.metadata.restrictions).toMatchObject({
      value: 'Uso obligatorio de gafas',
      type: 'TEXT',
    });
    const fit = await recordFor(renewalWith({ result: 'Apto', restrictions: 'Uso obligatorio de gafas' }));
    expect(fit.record.metadata.restrictions).toBeUndefined();
  });

  it.each([
    ['an operator key in the metadata', { metadata: { $where: { value: '1' } } }],
    ['an operator as a value', { metadata: { observations: { value: { $ne: null } } } }],
    ['a dotted key', { metadata: { 'weight.value': { value: 1 } } }],
    ['an operator as the appointment', { dateId: { $ne: null } }],
  ])('answers 400 to %s', async (_label, override) => {
    const { patient, appointment } = await patientWithAppointment();
    const response = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: metadataOf(),
      ...override,
    });
    expect(response.status).toBe(400);
    expect(await service.models.Revision.countDocuments({ dateId: appointment.id })).toBe(0);
  });

  it.each([
    ['no body fields', {}],
    ['metadata as a list', { metadata: [] }],
    ['metadata as a text', { metadata: 'x' }],
    ['an entry that is not an object', { metadata: { weight: 70 } }],
    ['a malformed appointment id', { dateId: 'not-an-id' }],
    ['a malformed patient id', { userId: 12 }],
  ])('answers 400 to wrong types: %s', async (_label, override) => {
    const { patient, appointment } = await patientWithAppointment();
    const body =
      Object.keys(override).length === 0
        ? {}
        : { userId: patient.id, dateId: appointment.id, metadata: metadataOf(), ...override };
    expect((await createRecord(body)).status).toBe(400);
  });

  it("answers 400 to a record for another patient's appointment", async () => {
    const { appointment } = await patientWithAppointment();
    const { patient: other } = await patientWithAppointment();
    const response = await createRecord({ userId: other.id, dateId: appointment.id, metadata: metadataOf() });
    expect(response).toMatchObject({
      status: 400,
      body: { message: 'La cita no pertenece a este paciente', errors: [{ field: 'userId' }] },
    });
  });

  it('answers 400 to a record for an appointment that does not exist', async () => {
    const { patient } = await patientWithAppointment();
    const response = await createRecord({
      userId: patient.id,
      dateId: '0123456789abcdef01234567',
      metadata: metadataOf(),
    });
    expect(response).toMatchObject({
      status: 400,
      body: { message: 'La cita no existe', errors: [{ field: 'dateId' }] },
    });
  });

  const ALREADY_RECORDED = 'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra';

  it('answers 409 with a Spanish message to a second record for the same appointment, keeping the first', async () => {
    const { patient, appointment, record } = await recordFor();
    const again = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: renewalWith({ observations: 'Segundo intento' }),
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      message: ALREADY_RECORDED,
      errors: [{ message: ALREADY_RECORDED, field: 'dateId' }],
    });
    const stored = await stack.api.get<RecordView>(`/records/${record.id}`, staff.DOCTOR.token);
    expect(stored.body).toEqual(record);
  });

  it('answers one 201 and one 409 to two saves of the same appointment at the same moment', async () => {
    const { patient, appointment } = await patientWithAppointment();
    const body = { userId: patient.id, dateId: appointment.id, metadata: metadataOf() };
    const answers = await Promise.all([createRecord(body), createRecord(body, staff.ADMIN.token)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.message).toBe(ALREADY_RECORDED);
    expect(await service.models.Revision.countDocuments({ recordId: appointment.id })).toBe(1);
  });

  it('answers 409 to a second record for the same appointment, also when both arrive at once', async () => {
    const { patient, appointment, record } = await recordFor();
    const again = await createRecord({ userId: patient.id, dateId: appointment.id, metadata: metadataOf() });
    expect(again).toMatchObject({ status: 409, body: { errors: [{ field: 'dateId' }] } });

    const fresh = await patientWithAppointment();
    const body = { userId: fresh.patient.id, dateId: fresh.appointment.id, metadata: metadataOf() };
    const statuses = (await Promise.all([createRecord(body), createRecord(body), createRecord(body)]))
      .map((response) => response.status)
      .sort();
    expect(statuses).toEqual([201, 409, 409]);
    expect(
      await service.models.Revision.countDocuments({
        dateId: { $in: [appointment.id, fresh.appointment.id] },
      }),
    ).toBe(2);
    expect(record.dateId).toBe(appointment.id);
  });

  it('answers 409 to a record for a cancelled appointment', async () => {
    const { patient, appointment } = await patientWithAppointment();
    expect((await stack.api.delete(`/dates/cancel/${appointment.id}`, staff.DOCTOR.token)).status).toBe(200);
    const response = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: metadataOf(),
    });
    expect(response).toMatchObject({ status: 409, body: { errors: [{ field: 'dateId' }] } });
  });
});

describe('a record for an appointment marked "No presentado"', () => {
  it('is refused with 409 and a Spanish message on dateId, and no record is stored', async () => {
    const patient = await registerPatient(stack, staff.DOCTOR.token, `Paciente Ausente ${++patientCount}`);
    // A walk-in that started a minute ago, then marked as a no-show by the doctor.
    const walkIn = await stack.api.post(
      '/dates/service',
      {
        pacientId: patient.id,
        date: new Date(Date.now() - 60_000).toISOString(),
        code: await emailedKioskCode(stack, staff.SERVICE_ACCOUNT.token, patient.email),
      },
      staff.SERVICE_ACCOUNT.token,
    );
    expect(walkIn.status).toBe(201);
    expect((await stack.api.post(`/dates/noshow/${walkIn.body.id}`, {}, staff.DOCTOR.token)).status).toBe(
      200,
    );
    const response = await createRecord({
      userId: patient.id,
      dateId: walkIn.body.id,
      metadata: metadataOf(),
    });
    expect(response).toMatchObject({
      status: 409,
      body: {
        message:
          'La cita está marcada como «No presentado»: el paciente no acudió y no admite historia clínica',
        errors: [{ field: 'dateId' }],
      },
    });
    expect(await service.models.Revision.countDocuments({ dateId: walkIn.body.id })).toBe(0);
  });
});

describe('GET /records/appointment/:id', () => {
  const lookup = (appointmentId: string, token = staff.DOCTOR.token) =>
    stack.api.get<{ record: RecordView | null; message?: string }>(
      `/records/appointment/${appointmentId}`,
      token,
    );

  it('answers {record: null} for an appointment without a record, and its record once it has one', async () => {
    const { patient, appointment } = await patientWithAppointment();
    expect(await lookup(appointment.id)).toMatchObject({ status: 200, body: { record: null } });
    const created = await createRecord({
      userId: patient.id,
      dateId: appointment.id,
      metadata: metadataOf(),
    });
    expect(created.status).toBe(201);
    const found = await lookup(appointment.id, staff.ADMIN.token);
    expect(found.status).toBe(200);
    expect(found.body.record).toEqual(
      (await stack.api.get<RecordView>(`/records/${created.body.id}`, staff.DOCTOR.token)).body,
    );
    expect(found.body.record!.dateId).toBe(appointment.id);
  });

  it('answers 400 to a malformed id and refuses patients and the kiosk', async () => {
    const { patient, appointment } = await patientWithAppointment();
    expect((await lookup('not-an-id')).status).toBe(400);
    expect((await lookup(appointment.id, patient.token)).status).toBe(403);
    expect((await lookup(appointment.id, staff.SERVICE_ACCOUNT.token)).status).toBe(403);
    expect((await stack.api.get(`/records/appointment/${appointment.id}`)).status).toBe(401);
  });
});

describe('GET /records/:id', () => {
  it('answers 404 for an unknown record and 400 for a malformed id', async () => {
    expect((await stack.api.get('/records/0123456789abcdef01234567', staff.DOCTOR.token)).status).toBe(404);
    expect((await stack.api.get('/records/xyz', staff.DOCTOR.token)).status).toBe(400);
  });
});

describe('PUT /records/:id', () => {
  const update = (id: string, metadata: unknown, token = staff.DOCTOR.token) =>
    stack.api.put<RecordView & { message: string }>(`/records/${id}`, { metadata }, token);

  it('merges the given fields over the stored ones, re-prices the record and keeps doctor and patient', async () => {
    const { record } = await recordFor();
    const response = await update(
      record.id,
      { extraReport: { value: '10' }, observations: { value: 'Revisión anual' }, total: { value: 1 } },
      staff.ADMIN.token,
    );
    expect(response.status).toBe(200);
    expect(value(response.body, 'observations')).toBe('Revisión anual');
    expect(value(response.body, 'weight')).toBe(78);
    expect(value(response.body, 'validity')).toBe(value(record, 'validity'));
    expect(response.body.metadata.validity!.selectedLabel).toBe('10 años');
    expect(value(response.body, 'net')).toBe(63.58);
    expect(value(response.body, 'total')).toBe(64);
    expect(response.body).toMatchObject({
      id: record.id,
      doctor: record.doctor,
      user: record.user,
      date: record.date,
      createdAt: record.createdAt,
    });
    expect((await stack.api.get<RecordView>(`/records/${record.id}`, staff.DOCTOR.token)).body).toEqual(
      response.body,
    );
  });

  it('accepts the stored validity date sent back, and refuses one far from every option', async () => {
    const { record } = await recordFor();
    const sameDate = await update(record.id, { validity: { value: value(record, 'validity') } });
    expect(sameDate.status).toBe(200);
    expect(sameDate.body.metadata.validity).toEqual(record.metadata.validity);
    const farAway = await update(record.id, { validity: { value: '2099-01-01T00:00:00.000Z' } });
    expect(farAway).toMatchObject({ status: 400, body: { errors: [{ field: 'metadata.validity' }] } });
  });

  it('changes the validity by option and recomputes the date from the appointment', async () => {
    const { record, appointment } = await recordFor();
    const response = await update(record.id, { validity: { value: '6 meses' } });
    const sixMonths = new Date(appointment.date);
    sixMonths.setUTCMonth(sixMonths.getUTCMonth() + 6);
    expect(response.body.metadata.validity).toMatchObject({
      value: sixMonths.toISOString(),
      selectedLabel: '6 meses',
    });
  });

  it('drops the DGT fees and re-prices when the certificate is no longer a driving licence', async () => {
    const { record } = await recordFor();
    expect(value(record, 'total')).toBe(54);
    const response = await update(record.id, { certificateType: { value: 'Licencia de armas' } });
    expect(response.status).toBe(200);
    expect(response.body.metadata.dgtFee).toBeUndefined();
    expect(response.body.metadata.dgtManagement).toBeUndefined();
    expect(value(response.body, 'net')).toBe(19);
    expect(value(response.body, 'total')).toBe(19);
  });

  it('drops the restrictions when the result no longer needs them', async () => {
    const { record } = await recordFor(
      renewalWith({ result: 'Apto con restricciones', restrictions: 'Gafas' }),
    );
    const response = await update(record.id, { result: { value: 'Apto' } });
    expect(response.status).toBe(200);
    expect(response.body.metadata.restrictions).toBeUndefined();
  });

  it('publishes records.record.updated.v1 with references only', async () => {
    const listener = await listenForMessages<{ name: string; data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      'records.record.updated.v1',
    );
    try {
      const { record } = await recordFor();
      expect((await update(record.id, { observations: { value: 'NOTA-PRIVADA' } })).status).toBe(200);
      const event = await listener.waitFor((message) => message.body.data.id === record.id);
      expect(event.body.data).toEqual({
        id: record.id,
        userId: record.userId,
        dateId: record.dateId,
        doctorId: staff.DOCTOR.id,
        configVersion: 1,
        billing: expect.objectContaining({ gross: 54, currency: 'EUR', revision: 2 }),
      });
      expect(JSON.stringify(event.body)).not.toContain('NOTA-PRIVADA');
    } finally {
      await listener.close();
    }
  });

  it.each([
    ['a 101-character text', { observations: { value: 'b'.repeat(101) } }, TEXT_LENGTH_MESSAGE],
    ['an unknown field', { colour: { value: 'rojo' } }, 'Campo desconocido: colour'],
    ['an empty required field', { weight: { value: '' } }, 'El campo «Peso (kg)» es obligatorio'],
    ['a wrong type', { weight: { value: [1] } }, 'El campo «Peso (kg)» debe ser un número'],
  ])('answers 400 to %s and keeps the record as it was', async (_label, metadata, message) => {
    const { record } = await recordFor();
    const response = await update(record.id, metadata);
    expect(response).toMatchObject({ status: 400, body: { message } });
    expect((await stack.api.get<RecordView>(`/records/${record.id}`, staff.DOCTOR.token)).body).toEqual(
      record,
    );
  });

  it('answers 400 to operators and to a body without metadata, 404 to an unknown record', async () => {
    const { record } = await recordFor();
    expect(
      (await stack.api.put(`/records/${record.id}`, { metadata: { $set: { value: 1 } } }, staff.DOCTOR.token))
        .status,
    ).toBe(400);
    expect(
      (await stack.api.put(`/records/${record.id}`, { userId: record.userId }, staff.DOCTOR.token)).status,
    ).toBe(400);
    expect((await update('0123456789abcdef01234567', {})).status).toBe(404);
  });

  it('applies concurrent updates one after the other, losing none, and lists the latest', async () => {
    const { record } = await recordFor();
    const answers = await Promise.all([
      update(record.id, { observations: { value: 'Primera nota' } }),
      update(record.id, { extraReport: { value: '10' } }, staff.ADMIN.token),
      update(record.id, { bloodPressure: { value: '130/85' } }),
      update(record.id, { discount: { value: '3.58' } }, staff.ADMIN.token),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const stored = (await stack.api.get<RecordView>(`/records/${record.id}`, staff.DOCTOR.token)).body;
    expect(value(stored, 'observations')).toBe('Primera nota');
    expect(value(stored, 'extraReport')).toBe(10);
    expect(value(stored, 'bloodPressure')).toBe('130/85');
    expect(value(stored, 'net')).toBe(60);
    // Every save is kept as a revision (an audit trail of the clinical record).
    expect(await service.models.Revision.countDocuments({ recordId: record.id })).toBe(5);
    const listed = (
      await stack.api.get<RecordsPage>(
        `/records?search=${encodeURIComponent(stored.user.name)}`,
        staff.DOCTOR.token,
      )
    ).body.records;
    expect(listed).toEqual([stored]);
  });
});

describe('GET /records', () => {
  let names: string[];

  beforeAll(async () => {
    names = ['Ágata Núñez Búsqueda', 'Bruno Búsqueda Pérez', 'Carla (Busqueda) Ruiz'];
    for (const name of names) {
      const { patient, appointment } = await patientWithAppointment(name);
      expect(
        (await createRecord({ userId: patient.id, dateId: appointment.id, metadata: metadataOf() })).status,
      ).toBe(201);
    }
  });

  const list = (query: string, token = staff.DOCTOR.token) =>
    stack.api.get<RecordsPage & { message?: string }>(`/records${query}`, token);

  it('pages with the defaults 1 / 10 and answers {records, total, page, totalPages, limit}', async () => {
    const response = await list('');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ page: 1, limit: 10 });
    expect(response.body.records.length).toBeLessThanOrEqual(10);
    expect(response.body.totalPages).toBe(Math.max(1, Math.ceil(response.body.total / 10)));
    expect(response.body.total).toBeGreaterThanOrEqual(3);
  });

  it('finds records by patient name, case- and accent-insensitively', async () => {
    const response = await list('?search=BUSQUEDA');
    expect(response.body.total).toBe(3);
    expect(response.body.records.map((record) => record.user.name).sort()).toEqual([...names].sort());
    expect(
      (await list(`?search=${encodeURIComponent('núñez búsq')}`)).body.records.map(
        (record) => record.user.name,
      ),
    ).toEqual(['Ágata Núñez Búsqueda']);
  });

  it('finds records by doctor name', async () => {
    const byDoctor = await list('?search=doctor&limit=100');
    expect(byDoctor.body.total).toBeGreaterThanOrEqual(3);
    expect(byDoctor.body.records.every((record) => record.doctor.name === 'Doctor')).toBe(true);
  });

  it('reads the search as words, never as a regular expression', async () => {
    const names = async (search: string) =>
      (await list(`?search=${encodeURIComponent(search)}`)).body.records.map((record) => record.user.name);
    // Punctuation only separates words: "(Busqueda)" is the word "busqueda", anchors are not anchors.
    expect(await names('carla (busqueda)')).toEqual(['Carla (Busqueda) Ruiz']);
    expect(await names('(Busqueda)')).toHaveLength(3);
    expect(await names('^busqueda$')).toHaveLength(3);
    expect((await list(`?search=${encodeURIComponent('.*')}`)).body.total).toBe(0);
  });

  it('pages through the results without repeating one', async () => {
    const first = await list('?search=busqueda&limit=2&page=1');
    const second = await list('?search=busqueda&limit=2&page=2');
    expect(first.body).toMatchObject({ total: 3, page: 1, totalPages: 2, limit: 2 });
    expect(second.body).toMatchObject({ total: 3, page: 2, totalPages: 2, limit: 2 });
    const ids = [...first.body.records, ...second.body.records].map((record) => record.id);
    expect(new Set(ids).size).toBe(3);
  });

  it('caps the limit at 100', async () => {
    expect((await list('?limit=5000')).body.limit).toBe(100);
  });

  it.each([
    '?page=0',
    '?page=abc',
    '?limit=0',
    '?limit=-1',
    '?search=a&search=b',
    `?search=${'x'.repeat(101)}`,
  ])('answers 400 to %s', async (query) => {
    expect((await list(query)).status).toBe(400);
  });
});
