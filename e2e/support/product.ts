import fs from 'node:fs';
import path from 'node:path';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../test-support/stack';
import { REPO_ROOT } from './browser';

export { BOOTSTRAP, uniqueEmail, type Stack };

/**
 * The running product for browser tests: auth, the e-mail worker, appointments and config (the centre
 * profile every public page shows) behind the real gateway, which serves the built frontends
 * (frontends/<app>/dist) like `npm start` does.
 */
export async function startProduct(): Promise<Stack> {
  return startStack({
    components: ['auth', 'notifications', 'appointments', 'config'],
    env: { FRONTENDS_DIR: builtFrontends(['shell']) },
  });
}

/** Every service behind the gateway, serving the shell and the federated remotes (back office, kiosk). */
export async function startFullProduct(
  remotes: Array<'backoffice' | 'kiosk'>,
  env: Record<string, string> = {},
): Promise<Stack> {
  return startStack({
    components: ['auth', 'notifications', 'appointments', 'config', 'records', 'rooms'],
    env: { FRONTENDS_DIR: builtFrontends(['shell', ...remotes]), ...env },
  });
}

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
  const email = uniqueEmail('patient');
  const password = 'Paciente1234!';
  const response = await stack.api.post<{ id: string }>(
    '/auth/doctor/patient/create',
    { name, phone: '612345678', email, password },
    doctor,
  );
  if (response.status !== 201)
    throw new Error(`patient creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { email, password, id: response.body.id };
}

/** "DD/MM/YYYY" and "HH:mm" of an instant at the centre (Atlantic/Canary). */
export function centreDateTime(iso: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Atlantic/Canary',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return { date: `${parts.day}/${parts.month}/${parts.year}`, time: `${parts.hour}:${parts.minute}` };
}
