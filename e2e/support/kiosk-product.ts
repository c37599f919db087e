import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startStack, type Stack } from '../../test-support/stack';
import { REPO_ROOT, screenshot } from './browser';
import { answerDialog } from './dialogs';
import { BOOTSTRAP, createConfirmedPatient, uniqueEmail } from './product';

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
  const frontends = path.join(REPO_ROOT, 'frontends');
  for (const [app, entry] of [
    ['shell', 'index.html'],
    ['kiosk', 'remoteEntry.js'],
  ]) {
    if (!fs.existsSync(path.join(frontends, app, 'dist', entry))) {
      throw new Error(
        `frontends/${app}/dist is missing: build it first (npm run build -w @crm/${app}); npm test does this`,
      );
    }
  }
  const stack = await startStack({
    components: ['auth', 'notifications', 'appointments'],
    env: { FRONTENDS_DIR: frontends },
  });
  // A deployable stops once: stack.stop() leaves it alone afterwards.
  return Object.assign(stack, { stopAppointments: () => stack.components.appointments!.stop() });
}

/** Signs the kiosk account in on /login, which lands on /onboarding (its home). */
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
}

/** The back end as the tests check it: through the gateway's API, with staff and kiosk tokens. */
export async function kioskBackend(stack: Stack) {
  const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  return {
    /** The patient with this e-mail, or undefined (GET /users/fetch answers 404). */
    async patient(email: string): Promise<KioskPatient | undefined> {
      const response = await stack.api.get(`/users/fetch?email=${encodeURIComponent(email)}`, kiosk);
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
    /** Books the patient's walk-in appointment through the API (server default date). */
    async bookWalkIn(patientId: string): Promise<KioskAppointment> {
      const response = await stack.api.post('/dates/service', { pacientId: patientId }, kiosk);
      if (response.status !== 201) throw new Error(`booking failed: ${response.status}`);
      return response.body as KioskAppointment;
    },
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
