import type { Page } from 'playwright-core';
import { arrivingKioskCode, emailedKioskCode, kioskCodeMails } from '../../test-support/kiosk-codes';
import type { Stack } from '../../test-support/stack';
import { screenshot } from './browser';
import { answerDialog } from './dialogs';
import { BOOTSTRAP, createConfirmedPatient, startProductServing, uniqueEmail } from './product';

/** The portrait touch terminals the kiosk must work on. */
export const TERMINALS = [
  { width: 768, height: 1024 },
  { width: 1080, height: 1920 },
] as const;

/**
 * What the kiosk needs of the product: auth, the e-mail worker and appointments behind the real
 * gateway, which serves the built shell and kiosk (frontends/<app>/dist) like `npm start` does.
 * The appointments component can be stopped once (`stopAppointments`) to take the back end down.
 */
export async function startKioskProduct(): Promise<Stack & { stopAppointments(): Promise<void> }> {
  const stack = await startProductServing(['auth', 'notifications', 'appointments'], ['shell', 'kiosk']);
  // A deployable stops once: stack.stop() leaves it alone afterwards.
  return Object.assign(stack, { stopAppointments: () => stack.components.appointments!.stop() });
}

/** Signs the kiosk account in on /login, which lands on /onboarding. */
export async function signInAsKiosk(page: Page, gatewayUrl: string): Promise<void> {
  await page.goto(`${gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(BOOTSTRAP.kiosk.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(BOOTSTRAP.kiosk.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL('**/onboarding');
}

export interface KioskPatient {
  id: string;
  name: string;
  email: string;
  phone?: string;
}

export interface KioskAppointment {
  id: string;
  date: string;
  status: string;
  pacientId: string;
  channel: string;
  bookingCode?: string;
}

/** The back end as the tests check it: through the gateway's API, with staff and kiosk tokens. */
export async function kioskBackend(stack: Stack) {
  const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  return {
    /** The patient with this e-mail, or undefined (a doctor's GET /users/fetch answers 404). */
    async patient(email: string): Promise<KioskPatient | undefined> {
      const response = await stack.api.get(`/users/fetch?email=${encodeURIComponent(email)}`, doctor);
      if (response.status === 404) return undefined;
      if (response.status !== 200) throw new Error(`patient lookup failed: ${response.status}`);
      return response.body.data as KioskPatient;
    },
    /** Every appointment the patient ever had, newest first. */
    async history(patientId: string): Promise<KioskAppointment[]> {
      const response = await stack.api.get(`/dates/history/userid/${patientId}`, doctor);
      if (response.status !== 200) throw new Error(`history failed: ${response.status}`);
      return response.body.appointments as KioskAppointment[];
    },
    /** A confirmed patient with name and phone (registered by a doctor). */
    async completePatient(name: string): Promise<KioskPatient> {
      const { id, email } = await createConfirmedPatient(stack, name);
      return { id, email, name, phone: '34612345678' };
    },
    /** A patient the kiosk once created without a phone. */
    async patientWithoutPhone(name: string): Promise<KioskPatient> {
      const email = uniqueEmail('nophone');
      const response = await stack.api.post('/users/onboarding', { email, name, operation: 'create' }, kiosk);
      if (response.status !== 201) throw new Error(`onboarding failed: ${response.status}`);
      return response.body.data as KioskPatient;
    },
    /** Books the patient's walk-in appointment through the API (server default date), with an e-mailed code. */
    async bookWalkIn(patient: { id: string; email: string }): Promise<KioskAppointment> {
      const code = await emailedKioskCode(stack, kiosk, patient.email);
      const response = await stack.api.post('/dates/service', { pacientId: patient.id, code }, kiosk);
      if (response.status !== 201) throw new Error(`booking failed: ${response.status}`);
      return response.body as KioskAppointment;
    },
    /** The kiosk code e-mails the address has received so far (what `nextCode` waits past). */
    codeMails: (email: string) => kioskCodeMails(stack.mail, email),
    /** The code of the kiosk code e-mail that arrives after the `before` ones (the kiosk asked for it). */
    nextCode: (email: string, before: ReadonlySet<string>) => arrivingKioskCode(stack.mail, email, before),
  };
}

/** Screenshot once the step's entrance animation has ended (endless ones, like the spinner, go on). */
export async function kioskScreenshot(page: Page, name: string): Promise<string> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  return screenshot(page, name);
}
