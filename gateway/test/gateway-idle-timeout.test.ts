import { mintToken, type RunningServer, sleep, uniqueName } from '@crm/testing';
import { startGateway, type RunningGateway } from './support/gateway';
import { startEchoUpstream } from './support/upstreams';

/**
 * Doctor and admin sessions end after STAFF_IDLE_TIMEOUT_MINUTES without activity (here
 * 1.5 s). Activity is what the person does (`X-Idle-Ms`, sent by the front ends), not a page
 * polling; patients are not timed out.
 */
const TIMEOUT_MS = 1500;
let appointments: RunningServer;
let gw: RunningGateway;

beforeAll(async () => {
  appointments = await startEchoUpstream('appointments');
  gw = await startGateway({
    APPOINTMENTS_SERVICE_URL: appointments.url,
    STAFF_IDLE_TIMEOUT_MINUTES: String(TIMEOUT_MS / 60_000),
  });
});
afterAll(async () => {
  await gw.close();
  await appointments.close();
});

const call = async (token: string, idleMs?: number) => {
  const res = await fetch(`${gw.url}/api/v1/dates/agenda`, {
    headers: {
      authorization: `Bearer ${token}`,
      ...(idleMs === undefined ? {} : { 'x-idle-ms': String(idleMs) }),
    },
  });
  return { status: res.status, message: ((await res.json()) as { message?: string }).message };
};
const token = (rol: 'DOCTOR' | 'ADMIN' | 'PACIENT') => mintToken({ id: uniqueName('user'), rol });

it('ends a staff session the page keeps polling without the person doing anything', async () => {
  const doctor = token('DOCTOR');
  const start = Date.now();
  expect((await call(doctor, 0)).status).toBe(200);
  let answer = await call(doctor, Date.now() - start);
  while (answer.status === 200 && Date.now() - start < TIMEOUT_MS * 3) {
    await sleep(200);
    answer = await call(doctor, Date.now() - start);
  }
  expect(answer).toEqual({ status: 401, message: 'Sesión cerrada por inactividad' });
  expect(Date.now() - start).toBeGreaterThanOrEqual(TIMEOUT_MS);
  // Coming back does not reopen it: the person signs in again.
  expect(await call(doctor, 0)).toEqual({ status: 401, message: 'Sesión cerrada por inactividad' });
});

it('keeps a staff session the person keeps using, and one left alone for less than the timeout', async () => {
  const admin = token('ADMIN');
  const start = Date.now();
  while (Date.now() - start < TIMEOUT_MS * 2.5) {
    expect((await call(admin, 0)).status).toBe(200);
    await sleep(250);
  }
  await sleep(TIMEOUT_MS / 2);
  expect((await call(admin)).status).toBe(200);
});

it('does not time patients out', async () => {
  const patient = token('PACIENT');
  expect((await call(patient, 0)).status).toBe(200);
  await sleep(TIMEOUT_MS + 300);
  expect((await call(patient, TIMEOUT_MS * 2)).status).toBe(200);
});
