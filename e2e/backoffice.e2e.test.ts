/**
 * The back office (federated remote `backoffice` under /doctor/*) in real Chromium against the running
 * product: DOCTOR and ADMIN use the appointment list (search, sort, pages, columns), the patient list
 * (server pages, persisted columns), patient detail and history, register and schedule a patient,
 * reserve room slots; ADMIN deletes an appointment; a PACIENT is sent to /login.
 */
import type { Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { screenshot, DESKTOP, MOBILE, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import {
  centreInstant,
  columnTexts,
  nextMonthWeekdays,
  seedAppointments,
  type SeededAppointment,
} from './support/backoffice';
import { acceptCookies, answerDialog, fieldError } from './support/dialogs';
import { BOOTSTRAP, centreDateTime, startFullProduct, uniqueEmail, type Stack } from './support/product';

let stack: Stack;
let browser: Browser;
let page: Page;
let seeded: SeededAppointment[];
const days = nextMonthWeekdays();

/** Eight appointments next month, created out of date order so the default sort shows. */
const BOOKINGS = [
  { name: 'Ana Castro Pérez', day: 6, time: '09:00' },
  { name: 'Bruno Díaz León', day: 2, time: '10:00' },
  { name: 'Carmen Ruiz Vega', day: 9, time: '17:00' },
  { name: 'Daniel Soto Gil', day: 0, time: '09:15' },
  { name: 'Elena Marrero Cruz', day: 14, time: '12:00' },
  { name: 'Fernando Suárez Díaz', day: 3, time: '18:30' },
  { name: 'Gloria Santana Rey', day: 5, time: '11:45' },
  { name: 'Hugo Medina Ortiz', day: 11, time: '09:30' },
];
const byDate = () => [...seeded].sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
const when = (iso: string) => {
  const { date, time } = centreDateTime(iso);
  return `${date} ${time}`;
};

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

beforeAll(async () => {
  seeded = await seedAppointments(
    stack,
    BOOKINGS.map((b) => ({ name: b.name, date: centreInstant(days[b.day], b.time) })),
  );
}, 90000);

const appointmentRows = () => page.getByRole('table', { name: 'Listado de Citas' }).locator('tbody tr');

it('sends a PACIENT who opens /doctor/appointments to /login', async () => {
  const patient = seeded[0].patient;
  await page.goto(`${stack.gatewayUrl}/`);
  await acceptCookies(page);
  const token = await stack.signIn(patient.email, patient.password);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
  await page.waitForURL('**/login');
  expect(await page.getByRole('heading', { name: 'Listado de Citas' }).count()).toBe(0);
  await page.evaluate(() => localStorage.removeItem('token'));
});

it('DOCTOR: the list is sorted by date, 6 a page on a wide window, with the sidebar', async () => {
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.waitForURL('**/doctor/appointments');
  await page.getByRole('heading', { name: 'Listado de Citas' }).waitFor();
  await appointmentRows().nth(5).waitFor();

  const sidebar = page.getByRole('navigation').filter({ hasText: 'Agendar Cita' });
  expect((await sidebar.getByRole('link').allTextContents()).map((t) => t.trim())).toEqual([
    'Citas',
    'Agenda de hoy',
    'Agendar Cita',
    'Registrar Paciente',
    'Lista de Pacientes',
    'Registros Clinico',
    'Reservar Consulta',
    // Every doctor and admin sets up the second factor there.
    'Seguridad',
    'Cerrar Sesión',
  ]);
  expect(await appointmentRows().count()).toBe(6);
  const first6 = byDate().slice(0, 6);
  expect(await columnTexts(page, 'Listado de Citas', 'Paciente')).toEqual(first6.map((a) => a.patient.name));
  expect(await columnTexts(page, 'Listado de Citas', 'Fecha y hora')).toEqual(
    first6.map((a) => when(a.date)),
  );
  await page.getByText('Página 1 de 2').waitFor();
  await page.getByText('Total: 8 citas').waitFor();
  // Deleting is ADMIN's only.
  expect(await page.getByRole('button', { name: 'Eliminar' }).count()).toBe(0);
  await screenshot(page, 'backoffice-appointments-doctor');

  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByText('Página 2 de 2').waitFor();
  expect(await columnTexts(page, 'Listado de Citas', 'Paciente')).toEqual(
    byDate()
      .slice(6)
      .map((a) => a.patient.name),
  );
  await page.getByRole('button', { name: 'Anterior' }).click();
  await page.getByText('Página 1 de 2').waitFor();
});

it('DOCTOR: sorts by patient, searches with a debounce, hides a column', async () => {
  await page.getByRole('button', { name: 'Paciente', exact: true }).click();
  const names = [...BOOKINGS.map((b) => b.name)].sort((a, b) => a.localeCompare(b, 'es'));
  await page.waitForFunction(
    (first) => document.querySelector('table tbody tr td:nth-child(2)')?.textContent === first,
    names[0],
  );
  expect(await columnTexts(page, 'Listado de Citas', 'Paciente')).toEqual(names.slice(0, 6));
  await page.getByRole('button', { name: 'Paciente', exact: true }).click();
  expect((await columnTexts(page, 'Listado de Citas', 'Paciente'))[0]).toBe(names[names.length - 1]);

  const search = page.getByRole('searchbox', { name: 'Buscar paciente' });
  await search.fill('suarez');
  // Not filtered at once: the list waits 500 ms after the last keystroke.
  expect(await appointmentRows().count()).toBe(6);
  await page.getByText('Total: 1 cita').waitFor();
  expect(await columnTexts(page, 'Listado de Citas', 'Paciente')).toEqual(['Fernando Suárez Díaz']);
  await search.fill('nadie se llama así');
  await page.getByText('No se encontraron citas.').waitFor();
  await screenshot(page, 'backoffice-appointments-empty');
  await search.fill('');
  await page.getByText('Total: 8 citas').waitFor();

  // Columns resize by dragging their header's right edge.
  const header = page.getByRole('columnheader', { name: /Paciente/ });
  const before = (await header.boundingBox())!.width;
  const handle = (await page.getByRole('button', { name: /Ancho de la columna Paciente/ }).boundingBox())!;
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + 80, handle.y + handle.height / 2, { steps: 5 });
  await page.mouse.up();
  expect((await header.boundingBox())!.width).toBeGreaterThan(before + 40);

  await page.getByText('Columnas', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Correo' }).uncheck();
  expect(
    await page.getByRole('table', { name: 'Listado de Citas' }).locator('thead th').allTextContents(),
  ).not.toContain('Correo↕');
  await screenshot(page, 'backoffice-appointments-columns');
  await page.getByRole('checkbox', { name: 'Correo' }).check();
  await page.getByText('Columnas', { exact: true }).click();
});

it('DOCTOR: "Ver" opens /doctor/appointments/{id}', async () => {
  await page.reload();
  await appointmentRows().nth(5).waitFor();
  const earliest = byDate()[0];
  await page.getByRole('link', { name: `Ver la cita de ${earliest.patient.name}` }).click();
  await page.waitForURL(`**/doctor/appointments/${earliest.id}`);
  // The clinical-records feature's page: its "Volver a Citas", then the appointment loaded.
  await page.getByText('Volver a Citas').waitFor();
  await page.getByText('Cargando cita...').waitFor({ state: 'detached' });
  await page.getByText(earliest.patient.name).first().waitFor();
  await screenshot(page, 'backoffice-appointment-detail');
});

it('DOCTOR: patient list pages on the server and keeps hidden columns after a reload', async () => {
  await page.getByRole('link', { name: 'Lista de Pacientes' }).click();
  await page.waitForURL('**/doctor/patients/list');
  const table = page.getByRole('table', { name: 'Listado de Pacientes' });
  await table.locator('tbody tr').nth(5).waitFor();
  await page.getByText('Página 1 de 2').waitFor();
  await page.getByText('Total: 8 pacientes').waitFor();
  await page.getByRole('button', { name: 'Siguiente' }).click();
  await page.getByText('Página 2 de 2').waitFor();
  // The first page stays on screen until the second arrives.
  await table.locator('tbody tr').nth(2).waitFor({ state: 'detached' });
  expect(await table.locator('tbody tr').count()).toBe(2);

  await page.getByRole('searchbox', { name: 'Buscar paciente' }).fill('Medina');
  await page.getByText('Total: 1 paciente').waitFor();
  await page.getByText('Página 1 de 1').waitFor();
  expect(await columnTexts(page, 'Listado de Pacientes', 'Nombre')).toEqual(['Hugo Medina Ortiz']);
  await page.getByRole('searchbox', { name: 'Buscar paciente' }).fill('zzz-nadie');
  await page.getByText('No se encontraron pacientes.').waitFor();
  await page.getByRole('searchbox', { name: 'Buscar paciente' }).fill('');
  await page.getByText('Total: 8 pacientes').waitFor();

  await page.getByText('Columnas', { exact: true }).click();
  await page.getByRole('checkbox', { name: 'Teléfono' }).uncheck();
  await page.reload();
  await table.locator('tbody tr').nth(5).waitFor();
  const headers = (await table.locator('thead th').allTextContents()).map((h) =>
    h.replace(/[▲▼↕]/g, '').trim(),
  );
  expect(headers).toEqual(['Nombre', 'Correo', 'Acciones']);
  expect(await page.evaluate(() => localStorage.getItem('backoffice.patients.columns'))).toBe(
    '{"phone":false}',
  );
  await screenshot(page, 'backoffice-patients');
});

it('DOCTOR: patient detail with the appointment, then the history', async () => {
  const patient = seeded.find((s) => s.patient.name === 'Hugo Medina Ortiz')!;
  await page.getByRole('searchbox', { name: 'Buscar paciente' }).fill('Hugo Medina');
  await page.getByText('Total: 1 paciente').waitFor();
  await page.getByRole('link', { name: 'Ver a Hugo Medina Ortiz' }).click();
  await page.waitForURL(`**/doctor/patient/${patient.patient.id}`);
  await page.getByRole('heading', { name: 'Detalle del Paciente' }).waitFor();
  await page.getByRole('heading', { name: 'Detalle de la Cita' }).waitFor();
  const { date, time } = centreDateTime(patient.date);
  await page.getByText(date, { exact: true }).waitFor();
  await page.getByText(time, { exact: true }).waitFor();
  await page.getByText('+34 612 345 678').waitFor();
  await screenshot(page, 'backoffice-patient-detail');

  await page.getByRole('link', { name: 'Historial de Citas' }).click();
  await page.waitForURL(`**/doctor/appointments/hisotry/${patient.patient.id}`);
  await page.getByRole('heading', { name: 'Listado de Citas de Hugo Medina Ortiz' }).waitFor();
  expect(await columnTexts(page, 'Listado de Citas de Hugo Medina Ortiz', 'Estado')).toEqual(['Reservada']);
  await screenshot(page, 'backoffice-history');
  await page.getByRole('link', { name: 'Volver al paciente' }).click();
  await page.getByRole('heading', { name: 'Detalle del Paciente' }).waitFor();
  expect(await page.getByRole('link', { name: 'Registros Clínicos' }).getAttribute('href')).toBe(
    `/doctor/patient/records/${encodeURIComponent('Hugo Medina Ortiz')}`,
  );

  // "Editar Cita" does nothing (docs/product/back-office.md#patient-detail); "Cancelar Cita" cancels
  // after confirmation.
  await page.getByRole('button', { name: 'Editar Cita' }).click();
  await page.getByRole('button', { name: 'Cancelar Cita' }).click();
  const question = await answerDialog(page);
  expect(question).toEqual({
    title: '¿Cancelar la cita?',
    text: `Fecha ${date} Hora ${time} (Atlantic/Canary)`,
  });
  expect((await answerDialog(page)).title).toBe('Cancelación exitosa');
  await page.getByText('No hay citas agendadas').waitFor();
  await screenshot(page, 'backoffice-patient-no-appointment');
  await page.getByRole('link', { name: 'Historial de Citas' }).click();
  await page.getByRole('cell', { name: 'Cancelada' }).waitFor();
});

const newPatient = { name: 'Irene Quintana Brito', email: uniqueEmail('registered') };

it('DOCTOR: registers a patient ("Paciente Registrado"); a taken e-mail shows under its field', async () => {
  await page.getByRole('link', { name: 'Registrar Paciente' }).click();
  await page.waitForURL('**/doctor/patient/create');
  const fill = async (email: string) => {
    await page.getByLabel('Nombre Completo').fill(newPatient.name);
    await page.getByLabel('Número de Teléfono').fill('');
    await page.getByLabel('Número de Teléfono').pressSequentially('622334455');
    expect(await page.getByLabel('Número de Teléfono').inputValue()).toBe('+34 622 334 455');
    await page.getByLabel('Correo Electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Paciente1234!');
  };
  await fill(seeded[0].patient.email);
  await page.getByRole('button', { name: 'Registrar Paciente' }).click();
  expect(await fieldError(page, 'Correo Electrónico')).toBe(
    'Ya existe una cuenta con este correo electrónico',
  );
  await screenshot(page, 'backoffice-register-error');

  await fill(newPatient.email);
  await screenshot(page, 'backoffice-register-filled');
  await page.getByRole('button', { name: 'Registrar Paciente' }).click();
  expect(await answerDialog(page)).toEqual({
    title: 'Paciente Registrado',
    text: 'El paciente ha sido registrado correctamente.',
  });
  // The page reloads with an empty form.
  await page.waitForFunction(
    () => (document.querySelector('input[name="name"]') as HTMLInputElement)?.value === '',
  );
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  const found = await stack.api.get(`/users/pacients?search=${encodeURIComponent(newPatient.name)}`, doctor);
  expect(found.body.pacients).toEqual([
    expect.objectContaining({ name: newPatient.name, email: newPatient.email, phone: '34622334455' }),
  ]);
});

it('DOCTOR: schedules the new patient; an unknown name is "Paciente no encontrado"', async () => {
  await page.getByRole('link', { name: 'Agendar Cita' }).click();
  await page.waitForURL('**/doctor/appointments/create');
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page.locator(`[data-day="${days[0]}"]`).click();
  // 09:15 of that day is taken by a seeded appointment: not offered.
  await page.locator('.wk-slot').first().waitFor();
  const offered = await page.locator('.wk-slot').allTextContents();
  expect(offered).toContain('09:00');
  expect(offered).not.toContain('09:15');
  await screenshot(page, 'backoffice-schedule');
  const slot = centreInstant(days[0], '09:00');
  await page.locator(`[data-slot="${slot}"]`).click();

  const dialog = page.getByRole('dialog', { name: 'Seleccione un paciente' });
  await dialog.getByLabel('Nombre del paciente').fill('Irene Quintana');
  await dialog.getByRole('button', { name: 'Agendar Cita' }).click();
  const notFound = page.locator('.swal2-popup.swal2-show');
  await notFound.waitFor();
  expect(await notFound.locator('.swal2-confirm').textContent()).toBe('Aceptar');
  expect(await answerDialog(page)).toEqual({ title: 'Error', text: 'Paciente no encontrado' });

  await dialog.getByLabel('Nombre del paciente').fill(newPatient.name);
  await screenshot(page, 'backoffice-schedule-picker');
  await dialog.getByRole('button', { name: 'Agendar Cita' }).click();
  const confirm = await answerDialog(page);
  expect(confirm.title).toBe('¿Confirmar la cita?');
  expect(confirm.text).toContain(`Fecha ${centreDateTime(slot).date} Hora 09:00 (Atlantic/Canary)`);
  expect((await answerDialog(page)).title).toBe('Reserva exitosa');
  await page.locator('.wk-slot').first().waitFor();
  expect(await page.locator('.wk-slot').allTextContents()).not.toContain('09:00');

  await page.getByRole('link', { name: 'Citas', exact: true }).click();
  await page.getByRole('searchbox', { name: 'Buscar paciente' }).fill('Quintana');
  await page.getByText('Total: 1 cita').waitFor();
  expect(await columnTexts(page, 'Listado de Citas', 'Fecha y hora')).toEqual([when(slot)]);
});

it('DOCTOR: reserves two room slots, which are no longer offered after a reload', async () => {
  await page.getByRole('link', { name: 'Reservar Consulta' }).click();
  await page.waitForURL('**/doctor/room/reserve');
  await page.getByRole('button', { name: 'Reservar' }).click();
  expect(await answerDialog(page)).toEqual({
    title: 'Error al reservar la consulta',
    text: 'Debes seleccionar al menos un horario para reservar la consulta',
  });

  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  // A weekend is red and has no slots.
  const weekend = page.locator('.wk-calendar__day--weekend').first();
  expect(await weekend.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(179, 38, 30)');
  await weekend.click();
  await page.getByText('Sin horarios los fines de semana.').waitFor();

  const day = days[1];
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator('.wk-slot').first().waitFor();
  expect(await page.locator('.wk-slot').allTextContents()).toEqual([
    '08:00',
    '09:00',
    '10:00',
    '11:00',
    '12:00',
    '13:00',
    '14:00',
    '15:00',
    '16:00',
    '17:00',
  ]);
  const chosen = [centreInstant(day, '10:00'), centreInstant(day, '15:00')];
  for (const slot of chosen) await page.locator(`[data-slot="${slot}"]`).click();
  expect(await page.locator('.wk-slot[aria-pressed="true"]').count()).toBe(2);
  await screenshot(page, 'backoffice-room-selected');
  await page.getByRole('button', { name: 'Reservar' }).click();
  expect((await answerDialog(page)).title).toBe('Consulta reservada');

  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  const reserved = await stack.api.get<string[]>('/room-calendar/reserved-dates?room=consulta-1', doctor);
  expect(reserved.body).toEqual(chosen);

  await page.reload();
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page.locator(`[data-day="${day}"]`).click();
  await page.locator('.wk-slot').first().waitFor();
  const after = await page.locator('.wk-slot').allTextContents();
  expect(after).toHaveLength(8);
  expect(after).not.toContain('10:00');
  expect(after).not.toContain('15:00');
  await screenshot(page, 'backoffice-room-after');

  // Taken by someone else between choosing and "Reservar": the failure dialog, then no longer offered.
  const contested = centreInstant(day, '11:00');
  await page.locator(`[data-slot="${contested}"]`).click();
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  expect(
    (await stack.api.post('/room-calendar', { room: 'consulta-1', dates: [contested] }, admin)).status,
  ).toBe(201);
  await page.getByRole('button', { name: 'Reservar' }).click();
  expect(await answerDialog(page)).toEqual({
    title: 'Error al reservar la consulta',
    text: 'Ha ocurrido un error al reservar la consulta, intentelo más tarde o contacta con nosotros',
  });
  await page.locator(`[data-slot="${contested}"]`).waitFor({ state: 'detached' });
  await page.getByText('Ningún horario seleccionado.').waitFor();
});

it('DOCTOR: the profile is an empty placeholder', async () => {
  await page.goto(`${stack.gatewayUrl}/doctor/profile`);
  await page.getByRole('region', { name: 'Perfil' }).waitFor({ state: 'attached' });
  expect((await page.getByRole('region', { name: 'Perfil' }).textContent())?.trim()).toBe('');
  await screenshot(page, 'backoffice-profile');
});

it('ADMIN: deletes an appointment after confirmation; a failed delete shows "Error"', async () => {
  await page.goto(`${stack.gatewayUrl}/signOut`);
  await answerDialog(page);
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await page.waitForURL('**/doctor/appointments');
  await appointmentRows().nth(5).waitFor();
  await page.getByText('Total: 8 citas').waitFor();
  const [first, second] = byDate();

  // Declined confirmation: nothing happens.
  await page.getByRole('button', { name: `Eliminar la cita de ${first.patient.name}` }).click();
  expect((await answerDialog(page, 'cancel')).title).toBe('¿Eliminar la cita?');
  await page.getByText('Total: 8 citas').waitFor();

  await page.getByRole('button', { name: `Eliminar la cita de ${first.patient.name}` }).click();
  await page.locator('.swal2-popup.swal2-show').waitFor();
  await page.waitForTimeout(400); // the dialog's fade-in, for a readable screenshot
  await screenshot(page, 'backoffice-delete-confirm');
  await answerDialog(page);
  expect(await answerDialog(page)).toEqual({
    title: 'Cita eliminada',
    text: 'La cita ha sido eliminada correctamente.',
  });
  await page.getByText('Total: 7 citas').waitFor();
  expect(await columnTexts(page, 'Listado de Citas', 'Paciente')).not.toContain(first.patient.name);
  await screenshot(page, 'backoffice-appointments-admin');

  // Someone else cancels the next one meanwhile: the delete is refused with the server's message.
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  expect((await stack.api.delete(`/dates/cancel/${second.id}`, admin)).status).toBe(200);
  await page.getByRole('button', { name: `Eliminar la cita de ${second.patient.name}` }).click();
  await answerDialog(page);
  expect(await answerDialog(page)).toEqual({
    title: 'Error',
    text: 'Solo se pueden eliminar citas reservadas',
  });

  await page.reload();
  await page.getByText('Total: 6 citas').waitFor();
  const list = await stack.api.get('/dates?limit=100', admin);
  expect(list.body.dates.map((d: { id: string }) => d.id)).not.toContain(first.id);
});

it('ADMIN on a 390 px phone: 10 a page and the sidebar behind "Menú"', async () => {
  await page.setViewportSize(MOBILE);
  await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
  await appointmentRows().nth(5).waitFor();
  expect(await appointmentRows().count()).toBe(6);
  await page.getByText('Página 1 de 1').waitFor();
  expect(await page.getByRole('link', { name: 'Agendar Cita' }).isVisible()).toBe(false);
  await screenshot(page, 'backoffice-appointments-mobile');
  const bodyWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(bodyWidth).toBeLessThanOrEqual(MOBILE.width);
  await page.getByRole('button', { name: 'Menú' }).click();
  await screenshot(page, 'backoffice-menu-mobile');
  await page.getByRole('link', { name: 'Reservar Consulta' }).click();
  await page.waitForURL('**/doctor/room/reserve');
  expect(await page.getByRole('link', { name: 'Agendar Cita' }).isVisible()).toBe(false);
  await screenshot(page, 'backoffice-room-mobile', true);
  await page.goto(`${stack.gatewayUrl}/doctor/patient/create`);
  await page.getByLabel('Nombre Completo').waitFor();
  await screenshot(page, 'backoffice-register-mobile', true);
  await page.setViewportSize(DESKTOP);
});

it('logged no page errors', () => {
  // 4xx answers the tests provoke on purpose show up as failed resources in the console.
  expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});
