import fs from 'node:fs';
import moment from 'moment-timezone';
import path from 'node:path';
import { BOOTSTRAP, startStack, uniqueEmail, type ComponentName, type Stack } from '../../test-support/stack';
import { registeredPatient } from '../../test-support/patients';
import { REPO_ROOT } from './browser';

export { BOOTSTRAP, uniqueEmail, type Stack };

/** These services behind the real gateway, which serves these built frontends (frontends/<app>/dist). */
export function startProductServing(
  components: ComponentName[],
  apps: Array<'shell' | 'backoffice' | 'kiosk'>,
  env: Record<string, string> = {},
): Promise<Stack> {
  return startStack({ components, env: { FRONTENDS_DIR: builtFrontends(apps), ...env } });
}

/**
 * The running product for browser tests: auth, the e-mail worker, appointments and config (the centre
 * profile every public page shows) behind the real gateway, which serves the shell like `npm start` does.
 */
export function startProduct(): Promise<Stack> {
  return startProductServing(['auth', 'notifications', 'appointments', 'config', 'payments'], ['shell']);
}

/** Every service behind the gateway, serving the shell and the federated remotes (back office, kiosk). */
export function startFullProduct(
  remotes: Array<'backoffice' | 'kiosk'>,
  env: Record<string, string> = {},
): Promise<Stack> {
  return startProductServing(
    ['auth', 'notifications', 'appointments', 'config', 'records', 'rooms', 'payments'],
    ['shell', ...remotes],
    env,
  );
}

/** frontends/, once the apps' builds are there (`npm test` builds them before the browser tests). */
function builtFrontends(apps: string[]): string {
  const frontends = path.join(REPO_ROOT, 'frontends');
  for (const app of apps) {
    const entry = app === 'shell' ? 'index.html' : 'remoteEntry.js';
    if (!fs.existsSync(path.join(frontends, app, 'dist', entry))) {
      throw new Error(
        `frontends/${app}/dist is missing: build it first (npm run build -w @crm/${app}); npm test does this`,
      );
    }
  }
  return frontends;
}

/** A confirmed patient made by a doctor through the API (staff-registered patients need no e-mail step). */
export async function createConfirmedPatient(
  stack: Stack,
  name: string,
): Promise<{ email: string; password: string; id: string }> {
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  // One phone for all: the pages that show it are checked against it.
  const { email, password, id } = await registeredPatient(stack.api, doctor, {
    name,
    phone: '612345678',
    password: 'Paciente1234!',
  });
  return { email, password, id };
}

/** "DD/MM/YYYY" and "HH:mm" of an instant at the centre (Atlantic/Canary), worked out with moment. */
export function centreDateTime(iso: string): { date: string; time: string } {
  const atCentre = moment.tz(iso, 'Atlantic/Canary');
  return { date: atCentre.format('DD/MM/YYYY'), time: atCentre.format('HH:mm') };
}
