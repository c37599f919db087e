import { waitForQueue } from '@crm/testing';
import { registeredPatient } from '../../../../test-support/patients';
import { signedInStaff } from '../../../../test-support/staff-accounts';
import { startStack, type Stack } from '../../../../test-support/stack';

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

/** The stack's bootstrap doctor, admin and kiosk, signed in: their session tokens. */
export async function staffTokens(stack: Stack): Promise<StaffTokens> {
  const staff = await signedInStaff(stack.api);
  return {
    DOCTOR: staff.DOCTOR.token,
    ADMIN: staff.ADMIN.token,
    SERVICE_ACCOUNT: staff.SERVICE_ACCOUNT.token,
  };
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
      const name = `Paciente ${label} ${i + 1}`;
      const patient = await registeredPatient(stack.api, doctorToken, { name, label: `${label}${i + 1}` });
      const token = await stack.signIn(patient.email, patient.password);
      return { id: patient.id, name, email: patient.email, phone: patient.phone, token };
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
