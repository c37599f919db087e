/**
 * Texts and layout in real Chromium against the running product (every service,
 * the shell and both remotes):
 * 1. on phones the cookie banner never covers a dialog's buttons (alert dialogs, "Bienvenido!", the
 *    patient picker) and is still usable afterwards;
 * 2. /login and /signup keep the footer in view or right after the card (no empty band);
 * 3. the kiosk's "Continuar con Cita" is on screen at 1280×800, 768×1024 and 1080×1920;
 * 4. a click on the sorted column reverses the order in every back-office table;
 * 5. on a 390 px phone the appointment list's "Ver" / "Eliminar" are on screen;
 * 6. "Seleccione un paciente" finds "José Pérez" by "jose perez", tells two of them apart by e-mail
 *    and books the one picked, by id.
 * Screenshots go to artifacts/screenshots/layout-*.
 */
import type { Locator, Page } from 'playwright-core';
import { eventually } from '@crm/testing';
import { metadataOf } from '../services/records/test/factories/metadata';
import { DESKTOP, screenshot, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import {
  bookAsStaff,
  centreInstant,
  columnTexts,
  nextMonthWeekdays,
  seedAppointments,
  type SeededAppointment,
} from './support/backoffice';
import { pickFutureSlot } from './support/booking';
import { acceptCookies, answerDialog } from './support/dialogs';
import { kioskScreenshot, signInAsKiosk } from './support/kiosk-product';
import {
  BOOTSTRAP,
  createConfirmedPatient,
  startFullProduct,
  uniqueEmail,
  type Stack,
} from './support/product';

type Viewport = { width: number; height: number };
type Box = { x: number; y: number; width: number; height: number };

const PHONES: Viewport[] = [
  { width: 390, height: 844 },
  { width: 375, height: 812 },
];
const PHONE = PHONES[0];

let stack: Stack;
let browser: Browser;
let page: Page;
let doctorToken: string;
let adminToken: string;
let seeded: SeededAppointment[];
/** Patients who book on a phone while the banner shows, one per phone size. */
let phonePatients: Array<{ email: string; password: string; id: string }>;
/** Two patients called "José Pérez". */
let joses: Array<{ email: string; id: string }>;
let historyPatient: { id: string; name: string };

const days = nextMonthWeekdays();

browserOnProduct(
  () => startFullProduct(['backoffice', 'kiosk']),
  (started) => ({ stack, browser, page } = started),
  { viewport: PHONE, consent: false },
);

beforeAll(async () => {
  doctorToken = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  adminToken = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  // Booked out of date and name order, so that an unsorted list would show.
  seeded = await seedAppointments(stack, [
    { name: 'Carmen Ruiz Vega', date: centreInstant(days[4], '10:00') },
    { name: 'Ana Castro León', date: centreInstant(days[9], '11:30') },
    { name: 'Bruno Díaz Gil', date: centreInstant(days[1], '12:15') },
  ]);
  // A clinical record for each (for the record list).
  for (const appointment of seeded) {
    const record = await stack.api.post(
      '/records',
      { userId: appointment.patient.id, dateId: appointment.id, metadata: metadataOf() },
      doctorToken,
    );
    if (record.status !== 201)
      throw new Error(`record failed: ${record.status} ${JSON.stringify(record.body)}`);
  }
  phonePatients = [
    await createConfirmedPatient(stack, 'Marta Móvil Uno'),
    await createConfirmedPatient(stack, 'Nuria Móvil Dos'),
  ];
  joses = [
    await createConfirmedPatient(stack, 'José Pérez'),
    await createConfirmedPatient(stack, 'José Pérez'),
  ];
  // A history of two appointments: one deleted, then a new one (earlier in the month).
  const [history] = await seedAppointments(stack, [
    { name: 'Hugo Historia Ortiz', date: centreInstant(days[12], '09:00') },
  ]);
  const deleted = await stack.api.delete(`/dates/delete/${history.id}`, adminToken);
  if (deleted.status >= 300) throw new Error(`delete failed: ${deleted.status}`);
  await bookAsStaff(stack, doctorToken, centreInstant(days[2], '17:00'), history.patient.id);
  historyPatient = { id: history.patient.id, name: history.patient.name };
}, 120000);

const banner = () => page.locator('#cc-main .cm');

async function useToken(token: string | null): Promise<void> {
  await page.evaluate((t) => {
    if (t) localStorage.setItem('token', t);
    else localStorage.removeItem('token');
    sessionStorage.clear();
  }, token);
}

/** Waits for the entrance animations of the element (and its content) to end. */
async function settled(locator: Locator): Promise<void> {
  await locator.evaluate((element) =>
    Promise.all(
      element
        .getAnimations({ subtree: true })
        .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

const intersects = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Where the banner and a dialog's buttons lay out on top of each other (counted across the test). */
let geometricOverlaps = 0;

/**
 * Each button is inside the window and nothing is on top of it: the element at its four corners and
 * centre is the button itself. Compared with the banner's box, which is on screen meanwhile.
 */
async function expectNotCovered(buttons: Locator[], what: string): Promise<void> {
  expect(await banner().isVisible()).toBe(true);
  const bannerBox = (await banner().boundingBox())!;
  const viewport = page.viewportSize()!;
  for (const button of buttons) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    if (intersects(box, bannerBox)) geometricOverlaps += 1;
    const onTop = await button.evaluate((element) => {
      const r = element.getBoundingClientRect();
      const points: Array<[number, number]> = [
        [r.left + 3, r.top + 3],
        [r.right - 3, r.top + 3],
        [r.left + 3, r.bottom - 3],
        [r.right - 3, r.bottom - 3],
        [(r.left + r.right) / 2, (r.top + r.bottom) / 2],
      ];
      return points.map(([x, y]) => {
        const hit = document.elementFromPoint(x, y);
        return hit !== null && (hit === element || element.contains(hit));
      });
    });
    expect({ what, button: (await button.textContent())?.trim(), onTop }).toEqual({
      what,
      button: (await button.textContent())?.trim(),
      onTop: [true, true, true, true, true],
    });
  }
}

/** The shown alert dialog's buttons, once its entrance animation is over. */
async function alertButtons(): Promise<Locator[]> {
  const popup = page.locator('.swal2-popup.swal2-show');
  await popup.waitFor({ state: 'visible' });
  await settled(popup);
  return popup.locator('.swal2-actions button:visible').all();
}

describe('1. on phones the cookie banner never covers a dialog', () => {
  it.each(PHONES.map((viewport, index) => ({ ...viewport, index })))(
    '$width×$height: "Bienvenido!", the alert dialogs and "Seleccione un paciente" are above the banner',
    async ({ width, height, index }) => {
      await page.setViewportSize({ width, height });
      // A first visit, also when this is the second try of a test that stopped half-way.
      await page.context().clearCookies();
      await page.goto(`${stack.gatewayUrl}/dates`);
      await useToken(null);
      await page.reload();
      await banner().waitFor({ state: 'visible' });
      await settled(banner());

      // A visitor picks a slot: "Bienvenido!".
      await pickFutureSlot(page, { nth: 2 + index, slot: 0 });
      const welcome = page.getByRole('dialog', { name: 'Bienvenido!' });
      await welcome.waitFor();
      await expectNotCovered(
        [
          welcome.getByRole('link', { name: 'Iniciar Sesión' }),
          welcome.getByRole('link', { name: 'Registrarse' }),
        ],
        'Bienvenido!',
      );
      await screenshot(page, 'layout-banner-welcome');
      await page.keyboard.press('Escape');
      await welcome.waitFor({ state: 'hidden' });
      await useToken(null);

      // A patient signs in ("Inicio de sesión exitoso"), books: "¿…?" Sí/No, then "Reserva exitosa".
      const patient = phonePatients[index];
      await page.goto(`${stack.gatewayUrl}/login`);
      await page.getByLabel('Correo Electrónico').fill(patient.email);
      await page.getByLabel('Contraseña', { exact: true }).fill(patient.password);
      await page.getByRole('button', { name: 'Acceder' }).click();
      await expectNotCovered(await alertButtons(), 'Inicio de sesión exitoso');
      await answerDialog(page);
      await page.goto(`${stack.gatewayUrl}/dates`);
      await pickFutureSlot(page, { nth: 4 + index, slot: 1 });
      await expectNotCovered(await alertButtons(), 'confirmation');
      await screenshot(page, 'layout-banner-confirm');
      await answerDialog(page, 'confirm');
      const success = await alertButtons();
      expect(await page.locator('.swal2-popup.swal2-show .swal2-title').textContent()).toBe(
        'Reserva exitosa',
      );
      await expectNotCovered(success, 'Reserva exitosa');
      await screenshot(page, 'layout-banner-success');
      await answerDialog(page);

      // A doctor picks a slot: "Seleccione un paciente".
      await useToken(doctorToken);
      await page.goto(`${stack.gatewayUrl}/dates`);
      await pickFutureSlot(page, { nth: 6 + index, slot: 2 });
      const picker = page.getByRole('dialog', { name: 'Seleccione un paciente' });
      await picker.waitFor();
      await picker.getByLabel('Nombre del paciente').fill('jose perez');
      await picker.getByRole('option').first().waitFor();
      await expectNotCovered(
        [
          picker.getByRole('button', { name: 'Cancelar' }),
          picker.getByRole('button', { name: 'Agendar Cita' }),
          picker.getByRole('option').last(),
        ],
        'Seleccione un paciente',
      );
      await screenshot(page, 'layout-banner-picker');
      await picker.getByRole('button', { name: 'Cancelar' }).click();
      await picker.waitFor({ state: 'hidden' });
      await useToken(null);

      // The banner is still there and usable: nothing lies over its buttons.
      await page.goto(`${stack.gatewayUrl}/`);
      await banner().waitFor({ state: 'visible' });
      await settled(banner());
      const accept = page.locator('#cc-main .cm__btn[data-role="all"]');
      const acceptOnTop = await accept.evaluate((element) => {
        const r = element.getBoundingClientRect();
        const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
        return hit !== null && (hit === element || element.contains(hit));
      });
      expect(acceptOnTop).toBe(true);
    },
  );

  it('the check is not vacuous: on phones the banner does lie where dialog buttons are', () => {
    expect(geometricOverlaps).toBeGreaterThan(0);
  });

  it('the banner still accepts consent afterwards', async () => {
    await acceptCookies(page);
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(await banner().isVisible()).toBe(false);
  });
});

describe('2. /login and /signup: the footer is in view or right after the card', () => {
  const sizes: Viewport[] = [DESKTOP, ...PHONES];
  it.each(sizes)('$width×$height', async (viewport) => {
    await page.setViewportSize(viewport);
    for (const [path, title] of [
      ['/login', 'Iniciar Sesión'],
      ['/signup', 'Registro de Paciente'],
    ]) {
      await page.goto(`${stack.gatewayUrl}${path}`);
      await page.getByRole('heading', { level: 1, name: title }).waitFor();
      await page.waitForLoadState('networkidle');
      const card = (await page.locator('.auth-card').boundingBox())!;
      const footer = (await page.locator('footer.site-footer').boundingBox())!;
      const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      await screenshot(page, `layout-${path.slice(1)}`);
      const where = { path, viewport, card, footer, scrollHeight };
      if (scrollHeight <= viewport.height) {
        // Nothing to scroll: the whole footer is on screen.
        expect({ ...where, inView: footer.y + footer.height <= viewport.height + 1 }).toMatchObject({
          inView: true,
        });
      } else {
        // A page taller than the window: the footer follows the card, no empty band in between.
        expect({ ...where, gap: footer.y - (card.y + card.height) <= 48 }).toMatchObject({ gap: true });
      }
      if (viewport.width >= 1280) {
        // On a 1280×800 laptop the footer's line shows without scrolling on both pages.
        expect({ ...where, seen: footer.y + 44 <= viewport.height }).toMatchObject({ seen: true });
      }
      if (path === '/login') {
        expect({ ...where, whole: footer.y + footer.height <= viewport.height + 1 }).toMatchObject({
          whole: true,
        });
      }
    }
  });
});

describe('3. the kiosk: "Continuar con Cita" on screen without scrolling', () => {
  const terminals: Viewport[] = [
    { width: 1280, height: 800 },
    { width: 768, height: 1024 },
    { width: 1080, height: 1920 },
  ];

  beforeAll(async () => {
    await page.setViewportSize(terminals[0]);
    await page.goto(`${stack.gatewayUrl}/`);
    await useToken(null);
    await signInAsKiosk(page, stack.gatewayUrl);
  });

  afterAll(async () => {
    await useToken(null);
  });

  it.each(terminals)('$width×$height, a new patient (name and phone asked)', async (terminal) => {
    await page.setViewportSize(terminal);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
    await page.getByRole('heading', { level: 1, name: 'Bienvenido', exact: true }).waitFor();
    await page.getByLabel('Correo Electrónico').fill(uniqueEmail('walkin'));
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.getByRole('button', { name: 'Es mi primera visita', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Ya casi' }).waitFor();
    await page.getByLabel('Nombre Completo').waitFor();
    await page.getByLabel('Teléfono').waitFor();
    await kioskScreenshot(page, 'layout-kiosk-details');
    const box = (await page.getByRole('button', { name: 'Continuar con Cita' }).boundingBox())!;
    const scrollY = await page.evaluate(() => window.scrollY);
    expect({
      terminal,
      box,
      scrollY,
      inView: box.y >= 0 && box.y + box.height <= terminal.height,
    }).toMatchObject({
      scrollY: 0,
      inView: true,
    });
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(terminal.width);
  });
});

describe('4. a click on the sorted column reverses it (asc ⇄ desc), in every back-office table', () => {
  /** "DD/MM/YYYY HH:mm" → "YYYYMMDDHHmm", which sorts as text. */
  const dateKey = (text: string) => text.replace(/^(\d\d)\/(\d\d)\/(\d{4}) (\d\d):(\d\d).*$/, '$3$2$1$4$5');
  const nameKey = (text: string) => text.toLowerCase();

  function expectOrder(values: string[], key: (t: string) => string, direction: 'asc' | 'desc'): void {
    const keys = values.map(key);
    expect(new Set(keys).size).toBeGreaterThan(1);
    const sorted = [...keys].sort();
    expect(keys).toEqual(direction === 'asc' ? sorted : sorted.reverse());
  }

  /** Clicks a header and waits until it says the expected order (aria-sort). */
  async function clickHeader(table: string, header: string, expected: 'ascending' | 'descending') {
    const grid = page.getByRole('table', { name: table });
    await grid.getByRole('button', { name: header, exact: true }).click();
    await grid.locator(`thead th[aria-sort="${expected}"]`, { hasText: header }).waitFor();
  }

  async function expectToggles(
    table: string,
    header: string,
    key: (t: string) => string,
    first: 'asc' | 'desc',
  ): Promise<void> {
    const other = first === 'asc' ? 'desc' : 'asc';
    const aria = { asc: 'ascending', desc: 'descending' } as const;
    const before = [...(await columnTexts(page, table, header))].sort();
    for (const direction of [first, other, first, other] as const) {
      await clickHeader(table, header, aria[direction]);
      const values = await columnTexts(page, table, header);
      expect([...values].sort()).toEqual(before);
      expectOrder(values, key, direction);
    }
  }

  beforeAll(async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${stack.gatewayUrl}/`);
    await useToken(doctorToken);
  });

  it('appointment list: by date (sorted ascending at first), then by patient', async () => {
    const table = 'Listado de Citas';
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await page.getByRole('table', { name: table }).locator('tbody tr td').first().waitFor();
    await page.getByText(/^Total: \d+ citas$/).waitFor();
    // Read once the rows are the seeded appointments (a render in between may show fewer).
    const firstRead = await eventually(
      async () => {
        const values = await columnTexts(page, table, 'Fecha y hora');
        return new Set(values.map(dateKey)).size > 1 ? values : undefined;
      },
      10_000,
      'the appointment list with its rows',
    );
    expectOrder(firstRead, dateKey, 'asc');
    // The sorted column: desc, asc, desc, asc — never back to the booking order.
    for (const direction of ['desc', 'asc', 'desc', 'asc'] as const) {
      await clickHeader(table, 'Fecha y hora', direction === 'asc' ? 'ascending' : 'descending');
      expectOrder(await columnTexts(page, table, 'Fecha y hora'), dateKey, direction);
    }
    await screenshot(page, 'layout-sorted-appointments');
    await expectToggles(table, 'Paciente', nameKey, 'asc');
  });

  it('patient list: by name', async () => {
    const table = 'Listado de Pacientes';
    await page.goto(`${stack.gatewayUrl}/doctor/patients/list`);
    await page.getByRole('table', { name: table }).locator('tbody tr td').nth(3).waitFor();
    await expectToggles(table, 'Nombre', nameKey, 'asc');
  });

  it('clinical record list: by patient', async () => {
    const table = 'Listado de Registros Clínicos';
    await page.goto(`${stack.gatewayUrl}/doctor/patient/records`);
    await page.getByRole('table', { name: table }).locator('tbody tr td').nth(3).waitFor();
    await expectToggles(table, 'Paciente', nameKey, 'asc');
  });

  it('appointment history: by date (sorted descending at first)', async () => {
    const table = `Listado de Citas de ${historyPatient.name}`;
    await page.goto(`${stack.gatewayUrl}/doctor/appointments/hisotry/${historyPatient.id}`);
    await page.getByRole('table', { name: table }).locator('tbody tr').nth(1).waitFor();
    expectOrder(await columnTexts(page, table, 'Fecha y hora'), dateKey, 'desc');
    for (const direction of ['asc', 'desc', 'asc', 'desc'] as const) {
      await clickHeader(table, 'Fecha y hora', direction === 'asc' ? 'ascending' : 'descending');
      expectOrder(await columnTexts(page, table, 'Fecha y hora'), dateKey, direction);
    }
  });
});

describe('5. on a 390 px phone the appointment list is a column of cards', () => {
  it('"Ver" and "Eliminar" of the first row are on screen, nothing to scroll sideways', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${stack.gatewayUrl}/`);
    await useToken(adminToken);
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    const table = page.getByRole('table', { name: 'Listado de Citas' });
    await table.locator('tbody tr td').first().waitFor();
    const firstRow = table.locator('tbody tr').first();
    const ver = firstRow.getByRole('link', { name: /^Ver la cita de / });
    const eliminar = firstRow.getByRole('button', { name: /^Eliminar la cita de / });
    for (const control of [ver, eliminar]) {
      const box = (await control.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // Same columns and texts as on a desktop: each value is labelled with its column's header.
    const labels = await firstRow
      .locator('td')
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    expect(labels).toEqual([
      '"Fecha y hora"',
      '"Paciente"',
      '"Estado"',
      '"Código"',
      '"Pago"',
      '"Teléfono"',
      '"Correo"',
      'none',
    ]);
    expect(await ver.textContent()).toBe('Ver');
    expect(await eliminar.textContent()).toBe('Eliminar');
    // Sorting is still at hand.
    await table.getByRole('button', { name: 'Paciente', exact: true }).click();
    await table.locator('thead th[aria-sort="ascending"]', { hasText: 'Paciente' }).waitFor();
    await screenshot(page, 'layout-appointments-cards', true);
    await ver.click();
    await page.waitForURL(/\/doctor\/appointments\/[a-f0-9]{24}$/);

    // The other lists are cards too; the record list's many sort buttons stay on one line.
    for (const [name, path, table] of [
      ['patients', '/doctor/patients/list', 'Listado de Pacientes'],
      ['records', '/doctor/patient/records', 'Listado de Registros Clínicos'],
      [
        'history',
        `/doctor/appointments/hisotry/${historyPatient.id}`,
        `Listado de Citas de ${historyPatient.name}`,
      ],
    ]) {
      await page.goto(`${stack.gatewayUrl}${path}`);
      const grid = page.getByRole('table', { name: table });
      await grid.locator('tbody tr td').nth(1).waitFor();
      expect({ name, scrollWidth: await page.evaluate(() => document.documentElement.scrollWidth) }).toEqual({
        name,
        scrollWidth: PHONE.width,
      });
      const sortBar = (await grid.locator('thead tr').boundingBox())!;
      expect({ name, sortBarHeight: sortBar.height <= 60 }).toEqual({ name, sortBarHeight: true });
      const action = grid.locator('tbody tr').first().locator('td[data-actions] .wk-button');
      if ((await action.count()) > 0) {
        const box = (await action.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
      }
      await screenshot(page, `layout-${name}-cards`);
    }

    await page.setViewportSize(DESKTOP);
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await table.locator('tbody tr td').first().waitFor();
    await screenshot(page, 'layout-appointments-table');
  });
});

describe('6. "Seleccione un paciente": accents and case do not count, same names are told apart', () => {
  const picker = () => page.getByRole('dialog', { name: 'Seleccione un paciente' });
  const field = () => picker().getByLabel('Nombre del paciente');

  beforeAll(async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${stack.gatewayUrl}/`);
    await useToken(doctorToken);
  });

  it('finds both "José Pérez" by "jose perez", with their e-mails, and books the one picked', async () => {
    await page.goto(`${stack.gatewayUrl}/dates`);
    const slot = await pickFutureSlot(page, { nth: 8, slot: 3 });
    await picker().waitFor();

    await field().fill('nadie se llama así');
    await picker().getByRole('button', { name: 'Agendar Cita' }).click();
    expect(await answerDialog(page)).toEqual({ title: 'Error', text: 'Paciente no encontrado' });

    await field().fill('jose perez');
    const options = picker().getByRole('option');
    await options.nth(1).waitFor();
    expect(await options.count()).toBe(2);
    const shown = (await options.allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    expect(shown.sort()).toEqual(joses.map((jose) => `José Pérez ${jose.email}`).sort());
    await screenshot(page, 'layout-picker-same-names');

    // The full name alone is not enough when two patients have it: the doctor is asked to choose.
    await picker().getByRole('button', { name: 'Agendar Cita' }).click();
    await picker()
      .getByText('Hay 2 pacientes con este nombre: elija uno de la lista por su correo.')
      .waitFor();
    expect(await page.locator('.swal2-popup').count()).toBe(0);

    const chosen = joses[1];
    await options.filter({ hasText: chosen.email }).click();
    await picker().getByText(`Paciente elegido: José Pérez (${chosen.email})`).waitFor();
    await picker().getByRole('button', { name: 'Agendar Cita' }).click();
    const confirmation = await answerDialog(page, 'confirm');
    expect(confirmation.title).not.toBe('Error');
    expect((await answerDialog(page)).title).toBe('Reserva exitosa');

    // Booked for that patient (by id), not for the other one with the same name.
    const history = async (id: string) =>
      (await stack.api.get(`/dates/history/userid/${id}`, doctorToken)).body.appointments as Array<{
        date: string;
      }>;
    expect((await history(chosen.id)).map((a) => Date.parse(a.date))).toEqual([Date.parse(slot)]);
    expect(await history(joses[0].id)).toEqual([]);
  });

  it('on a phone: the keyboard picks from the list, Escape closes the list before the dialog', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${stack.gatewayUrl}/dates`);
    await pickFutureSlot(page, { nth: 9, slot: 0 });
    await picker().waitFor();
    await field().pressSequentially('JOSE  PÉREZ');
    await picker().getByRole('option').nth(1).waitFor();
    expect(await field().getAttribute('aria-expanded')).toBe('true');
    await screenshot(page, 'layout-picker-same-names');
    await page.keyboard.press('ArrowDown');
    const active = await field().getAttribute('aria-activedescendant');
    expect(await picker().locator(`[id="${active}"]`).getAttribute('aria-selected')).toBe('true');
    const email = (await picker().locator(`[id="${active}"] .wk-patient-picker__email`).textContent())!;
    await page.keyboard.press('Enter');
    await picker().getByText(`Paciente elegido: José Pérez (${email})`).waitFor();
    expect(await field().getAttribute('aria-expanded')).toBe('false');
    // The dialog is still open (Enter picked, it did not submit).
    expect(await page.locator('.swal2-popup').count()).toBe(0);

    await field().fill('jose');
    await picker().getByRole('option').first().waitFor();
    await page.keyboard.press('Escape');
    expect(await field().getAttribute('aria-expanded')).toBe('false');
    expect(await picker().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await picker().waitFor({ state: 'hidden' });
  });
});

it('logged no page errors', () => {
  // 4xx answers (the kiosk's unknown e-mail) show up as failed resources in the console.
  expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});
