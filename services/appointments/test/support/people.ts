import { waitForQueue } from '@crm/testing';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../../test-support/stack';

export interface TestPatient {
  id: string;
  name: string;
  email: string;
  phone: string;
  token: string;
}

export interface StaffTokens {
  DOCTOR: string;
  ADMIN: string;
  SERVICE_ACCOUNT: string;
}

export async function staffTokens(stack: Stack): Promise<StaffTokens> {
  const [DOCTOR, ADMIN, SERVICE_ACCOUNT] = await Promise.all([
    stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password),
    stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
    stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password),
  ]);
  return { DOCTOR, ADMIN, SERVICE_ACCOUNT };
}

/** Patients registered by the doctor through the auth API (confirmed at once), each signed in. */
export async function createPatients(
  stack: Stack,
  doctorToken: string,
  count: number,
  label = 'patient',
): Promise<TestPatient[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const person = {
        name: `Paciente ${label} ${i + 1}`,
        phone: `6${String(10_000_000 + i * 7919).padStart(8, '0')}`,
        email: uniqueEmail(`${label}${i + 1}`),
        password: 'contraseña-de-prueba',
      };
      const created = await stack.api.post('/auth/doctor/patient/create', person, doctorToken);
      if (created.status !== 201)
        throw new Error(`patient creation failed: ${created.status} ${JSON.stringify(created.body)}`);
      const token = await stack.signIn(person.email, person.password);
      return {
        id: created.body.id as string,
        name: person.name,
        email: person.email,
        phone: created.body.phone as string,
        token,
      };
    }),
  );
}

/** The stack every appointments API test uses, ready for e-mails about appointments. */
export async function appointmentsStackReady(stack: Stack): Promise<void> {
  await waitForQueue(stack.amqpUrl, `${stack.env.QUEUE_PREFIX}.notifications.appointment-mail`);
}

export interface AppointmentsTestStack {
  stack: Stack;
  staff: StaffTokens;
  patients: TestPatient[];
}

/**
 * The usual set-up of an appointments API test file: auth, the e-mail worker and appointments
 * (plus `withConfig`: the centre profile's service), the staff's tokens and `count` patients
 * (beforeAll), stopped after the file (afterAll). `ready` receives them for the file's variables.
 */
export function appointmentsTestStack(
  label: string,
  count: number,
  ready: (started: AppointmentsTestStack) => void,
  { withConfig = false } = {},
): void {
  let stack: Stack | undefined;
  beforeAll(async () => {
    stack = await startStack({
      components: withConfig
        ? ['auth', 'config', 'notifications', 'appointments']
        : ['auth', 'notifications', 'appointments'],
    });
    await appointmentsStackReady(stack);
    const staff = await staffTokens(stack);
    ready({ stack, staff, patients: await createPatients(stack, staff.DOCTOR, count, label) });
  }, 60_000);
  afterAll(async () => {
    await stack?.stop();
  });
}
