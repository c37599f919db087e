/**
 * The access trail's two screens (docs/product/rights-and-access-trail.md#access-trail) in real Chromium
 * against the running product (auth, appointments, config and the audit service behind the gateway, serving
 * the shell and the back office): an ADMIN reads "Registro de accesos" at /doctor/audit, filters it by dates,
 * patient and staff member and downloads the CSV with the same filters; a DOCTOR neither sees nor reads it; a
 * patient reads "Quién ha consultado mis datos" at /user/accesos (and the empty text when nobody has).
 *
 * The entries are recorded the way every service records them (`createAuditTrail`: an insert into a
 * producer's own audit_outbox, published by its relay to the stack's exchange), dated July 2025 so
 * that entries the services record for this test's own calls (today) stay out of the filtered views.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import type { AuditPage } from '@crm/contracts';
import { eventually, uniqueId } from '@crm/testing';
import { startProducer, type Producer } from '../test-support/audit-producer';
import { signedUpPatient } from '../test-support/patients';
import { screenshot, DESKTOP, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { columnTexts } from './support/backoffice';
import { BOOTSTRAP, startProductServing, type Stack } from './support/product';

const PHONE = { width: 390, height: 844 };

let stack: Stack;
let browser: Browser;
let page: Page;
let admin: string;
let producer: Producer;

const doctor = { id: uniqueId(), name: 'Dra. Lucía Núñez' };
const manager = { id: uniqueId(), name: 'Marta Déniz' };
const kiosk = { id: uniqueId(), name: 'Quiosco de entrada' };
const hostile = { id: uniqueId(), name: '=HYPERLINK("http://evil.test")' };
let ana: { id: string; token: string };
let ben: { id: string; token: string };
let nobody: { id: string; token: string };

/** Seeded window: 1–5 July 2025 at the centre (UTC+1 in summer). */
const FROM = '2025-07-01';
const TO = '2025-07-05';

browserOnProduct(
  () => startProductServing(['auth', 'appointments', 'config', 'audit'], ['shell', 'backoffice']),
  (started) => ({ stack, browser, page } = started),
);

beforeAll(async () => {
  admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  ana = await signedUpPatient(stack.api, {
    name: 'Ana Torres Medina',
    label: 'audit',
    phone: '612345678',
  });
  ben = await signedUpPatient(stack.api, {
    name: 'Benito Cabrera Luis',
    label: 'audit',
    phone: '612345678',
  });
  nobody = await signedUpPatient(stack.api, {
    name: 'Nadia Ojeda Falcón',
    label: 'audit',
    phone: '612345678',
  });
  producer = await startProducer({
    mongoUrl: stack.mongoUrl,
    amqpUrl: stack.busUrl('records'),
    exchange: stack.exchange,
  });
  const at = (iso: string) => new Date(iso);
  await producer.trail.record(
    {
      actorId: doctor.id,
      actorName: doctor.name,
      actorRol: 'DOCTOR',
      action: 'record.read',
      resource: 'record',
      resourceId: uniqueId(),
      patientIds: [ana.id],
      at: at('2025-07-01T08:30:00Z'),
    },
    {
      actorId: manager.id,
      actorName: manager.name,
      actorRol: 'ADMIN',
      action: 'appointment.read',
      resource: 'appointment',
      resourceId: uniqueId(),
      patientIds: [ana.id],
      at: at('2025-07-02T10:00:00Z'),
    },
    {
      actorId: kiosk.id,
      actorName: kiosk.name,
      actorRol: 'SERVICE_ACCOUNT',
      action: 'user.read',
      resource: 'user',
      resourceId: ana.id,
      patientIds: [ana.id],
      at: at('2025-07-03T07:45:00Z'),
    },
    {
      actorId: doctor.id,
      actorName: doctor.name,
      actorRol: 'DOCTOR',
      action: 'appointment.list',
      resource: 'appointment',
      patientIds: [ana.id, ben.id],
      at: at('2025-07-04T12:00:00Z'),
    },
    {
      actorId: manager.id,
      actorName: manager.name,
      actorRol: 'ADMIN',
      action: 'auth.signin',
      resource: 'session',
      patientIds: [],
      at: at('2025-07-05T06:00:00Z'),
      outcome: 'success',
    },
    {
      actorId: hostile.id,
      actorName: hostile.name,
      actorRol: 'DOCTOR',
      action: 'record.update',
      resource: 'record',
      resourceId: uniqueId(),
      patientIds: [ben.id],
      at: at('2025-07-05T09:00:00Z'),
    },
  );
  // 7 rows: one per patient named (the list names two), one for the sign-in about nobody.
  await eventually(
    async () => {
      const answer = await stack.api.get<AuditPage>(`/audit?from=${FROM}&to=${TO}`, admin);
      return answer.body.total === 7 ? true : undefined;
    },
    20000,
    'the 7 seeded rows stored',
  );
}, 120000);

afterAll(async () => {
  await producer?.stop();
});

async function useToken(token: string) {
  await page.evaluate((t) => localStorage.setItem('token', t), token);
}

const TABLE = 'Registro de accesos';
const rows = () => page.getByRole('table', { name: TABLE }).locator('tbody tr');
const total = () => page.locator('.bo-pager__total');

async function applyFilters(filters: { patient?: string; actor?: string; from?: string; to?: string }) {
  const form = page.getByRole('form', { name: 'Filtros del registro' });
  await form.getByLabel('Id. del paciente').fill(filters.patient ?? '');
  await form.getByLabel('Id. del usuario').fill(filters.actor ?? '');
  await form.getByLabel('Desde').fill(filters.from ?? '');
  await form.getByLabel('Hasta').fill(filters.to ?? '');
  await form.getByRole('button', { name: 'Filtrar' }).click();
}

it('ADMIN: the sidebar leads to "Registro de accesos", which lists the entries newest first', async () => {
  await useToken(admin);
  await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
  await page.getByRole('link', { name: 'Registro de accesos' }).click();
  await page.waitForURL('**/doctor/audit');
  await page.getByRole('heading', { name: 'Registro de accesos' }).waitFor();
  await rows().first().waitFor();

  await applyFilters({ from: FROM, to: TO });
  await total().filter({ hasText: 'Total: 7 accesos' }).waitFor();
  expect(await columnTexts(page, TABLE, 'Fecha')).toEqual([
    '05/07/2025 10:00',
    '05/07/2025 07:00',
    '04/07/2025 13:00',
    '04/07/2025 13:00',
    '03/07/2025 08:45',
    '02/07/2025 11:00',
    '01/07/2025 09:30',
  ]);
  const actions = await columnTexts(page, TABLE, 'Acción');
  expect(actions).toEqual([
    'Modificación de historia clínica',
    'Inicio de sesión',
    'Listado de citas',
    'Listado de citas',
    'Consulta de datos del paciente',
    'Consulta de cita',
    'Consulta de historia clínica',
  ]);
  expect(await columnTexts(page, TABLE, 'Rol')).toEqual([
    'Médico',
    'Administrador',
    'Médico',
    'Médico',
    'Quiosco',
    'Administrador',
    'Médico',
  ]);
  // The staff name is shown as text, whatever it looks like.
  expect((await columnTexts(page, TABLE, 'Usuario'))[0]).toContain(hostile.name);
  await screenshot(page, 'audit-admin');
});

it('ADMIN: filters by patient, then by patient and staff member', async () => {
  await applyFilters({ patient: ana.id, from: FROM, to: TO });
  await total().filter({ hasText: 'Total: 4 accesos' }).waitFor();
  expect(await columnTexts(page, TABLE, 'Paciente')).toEqual([ana.id, ana.id, ana.id, ana.id]);
  expect(await columnTexts(page, TABLE, 'Acción')).toEqual([
    'Listado de citas',
    'Consulta de datos del paciente',
    'Consulta de cita',
    'Consulta de historia clínica',
  ]);
  await screenshot(page, 'audit-admin-patient');

  await applyFilters({ patient: ana.id, actor: doctor.id, from: FROM, to: TO });
  await total().filter({ hasText: 'Total: 2 accesos' }).waitFor();
  expect((await columnTexts(page, TABLE, 'Usuario')).every((u) => u.includes(doctor.name))).toBe(true);

  // A malformed id is the server's 400, shown on its field.
  await applyFilters({ patient: 'no válido', from: FROM, to: TO });
  await page.getByText('El identificador del paciente no es válido').waitFor();
  await applyFilters({ patient: ana.id, from: FROM, to: TO });
  await total().filter({ hasText: 'Total: 4 accesos' }).waitFor();
});

it('ADMIN: "Exportar CSV" downloads the filtered rows with the header row, formulas neutralised', async () => {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^registro-de-accesos-.*\.csv$/);
  const file = await download.path();
  const text = fs.readFileSync(file, 'utf8');
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const lines = text.slice(1).split('\r\n').filter(Boolean);
  expect(lines[0]).toBe(
    'fecha;id_usuario;nombre_usuario;rol;accion;id_paciente;recurso;id_recurso;id_peticion;direccion_cliente;resultado;id_peticion_cliente;motivo',
  );
  // Patient filter + dates: Ana's four rows only.
  expect(lines).toHaveLength(5);
  expect(lines.slice(1).every((line) => line.split(';')[5] === ana.id)).toBe(true);

  // Without a patient: the hostile name starts with a quote, never with "=".
  await applyFilters({ from: FROM, to: TO });
  await total().filter({ hasText: 'Total: 7 accesos' }).waitFor();
  const [all] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Exportar CSV' }).click(),
  ]);
  const allLines = fs
    .readFileSync(await all.path(), 'utf8')
    .slice(1)
    .split('\r\n')
    .filter(Boolean);
  expect(allLines).toHaveLength(8);
  const hostileLine = allLines.find((line) => line.includes(hostile.id)) ?? '';
  expect(hostileLine).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
});

/** Elements wider than the window (none on a page that fits the phone). */
const overflowing = () =>
  page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      // (a scroller's content may be wider than the window: only what is not inside one counts)
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((el) => !el.parentElement?.closest('.bo-table__scroll'))
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`)
      .slice(0, 10),
  );

it('ADMIN at 390 px: the filters and the rows (as cards) fit the phone', async () => {
  await page.setViewportSize(PHONE);
  try {
    await applyFilters({ patient: ana.id, from: FROM, to: TO });
    await total().filter({ hasText: 'Total: 4 accesos' }).waitFor();
    await screenshot(page, 'audit-admin', true);
    expect(await overflowing()).toEqual([]);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
});

it('DOCTOR: no sidebar entry, and /doctor/audit says it is for administrators', async () => {
  const doctorToken = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await useToken(doctorToken);
  await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
  await page.getByRole('link', { name: 'Reservar Consulta' }).waitFor();
  expect(await page.getByRole('link', { name: 'Registro de accesos' }).count()).toBe(0);
  await page.goto(`${stack.gatewayUrl}/doctor/audit`);
  await page.getByText('Solo los administradores pueden consultar el registro de accesos.').waitFor();
  expect(await page.getByRole('table', { name: TABLE }).count()).toBe(0);
});

it('PACIENT: "Quién ha consultado mis datos" names who, in what role, did what and when', async () => {
  await useToken(ana.token);
  await page.goto(`${stack.gatewayUrl}/user`);
  await page.getByRole('link', { name: 'Quién ha consultado mis datos' }).click();
  await page.waitForURL('**/user/accesos');
  await page.getByRole('heading', { name: 'Quién ha consultado mis datos' }).waitFor();
  const list = page.getByRole('list', { name: 'Accesos a sus datos' });
  await list.getByText('Consultó su historia clínica').waitFor();
  const items = (await list.locator('li').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  // The ADMIN's export of Ana's rows (test above) is itself an access to her data.
  const seeded = items.filter((t) => t.includes('/07/2025'));
  expect(seeded).toEqual([
    '04/07/2025 13:00Vio su cita en el listado de citasDra. Lucía Núñez · Médico',
    '03/07/2025 08:45Consultó sus datos personalesQuiosco de entrada · Quiosco',
    '02/07/2025 11:00Consultó su citaMarta Déniz · Administrador',
    '01/07/2025 09:30Consultó su historia clínicaDra. Lucía Núñez · Médico',
  ]);
  // Never a staff id.
  const body = (await page.locator('main, body').first().textContent()) ?? '';
  expect(body).not.toContain(doctor.id);
  await screenshot(page, 'audit-patient');
  await page.setViewportSize(PHONE);
  try {
    await screenshot(page, 'audit-patient', true);
    expect(await overflowing()).toEqual([]);
  } finally {
    await page.setViewportSize(DESKTOP);
  }
});

it('PACIENT: someone nobody on the staff has looked up reads the empty text', async () => {
  await useToken(nobody.token);
  await page.goto(`${stack.gatewayUrl}/user/accesos`);
  await page.getByText('Nadie del personal ha consultado sus datos todavía.').waitFor();
  await screenshot(page, 'audit-patient-empty');
});

it('logged no page errors', () => {
  expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});
