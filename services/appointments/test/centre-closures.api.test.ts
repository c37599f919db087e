import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE, dayStatus, type CentreClosuresBody } from '@crm/contracts';
import { eventually } from '@crm/testing';
import { kioskCodes } from '../../../test-support/kiosk-codes';
import type { Stack } from '../../../test-support/stack';
import { appointmentsTestStack, type StaffTokens, type TestPatient } from './support/people';
import { canary } from './support/slots';

let stack: Stack;
let staff: StaffTokens;
let patients: TestPatient[];

appointmentsTestStack('closures', 4, (started) => ({ stack, staff, patients } = started), {
  withConfig: true,
});
/** The kiosk's calls carry the patient's e-mailed one-time code (docs/product/kiosk.md#proof). */
const codes = kioskCodes(
  () => stack,
  () => staff.SERVICE_ACCOUNT,
);

/** A working day (Monday–Friday, no public holiday) `weeksAhead` weeks from now, on `isoWeekday`. */
function workingDay(isoWeekday: number, weeksAhead: number): string {
  const day = moment.tz(CENTRE_TIME_ZONE).add(weeksAhead, 'weeks').startOf('day');
  while (day.isoWeekday() !== isoWeekday || !dayStatus(day.format('YYYY-MM-DD')).open) day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}

/** The next 25 December that falls from Monday to Friday. */
function nextWeekdayChristmas(): string {
  for (let year = new Date().getUTCFullYear(); ; year++) {
    const day = moment.tz(`${year}-12-25`, CENTRE_TIME_ZONE);
    if (day.isAfter(moment()) && day.isoWeekday() <= 5) return day.format('YYYY-MM-DD');
  }
}

const slotsOf = (day: string) => stack.api.get(`/dates/slots?day=${day}`);

/** Saves the closures as the admin does, then waits until the appointments service applies them. */
async function saveClosures(closures: CentreClosuresBody, probeDay: string, closed: boolean) {
  const saved = await stack.api.put('/config/centre/closures', closures, staff.ADMIN);
  expect(saved.status).toBe(200);
  await eventually(
    async () => ((await slotsOf(probeDay)).body.open === !closed ? true : undefined),
    10_000,
    `${probeDay} ${closed ? 'closed' : 'open'}`,
  );
  return saved;
}

const localHoliday = workingDay(3, 3);
const shortened = workingDay(2, 4);
const closedWithAppointment = workingDay(4, 5);
const closures: CentreClosuresBody = {
  localHolidays: [{ date: localHoliday, name: 'Fiesta local de prueba' }],
  closures: [],
  shortenedDays: [{ date: shortened, closesAt: '12:00', reason: 'Jornada de formación' }],
};

describe('closed days offer no slots (GET /dates/slots)', () => {
  it('a public holiday is closed without any configuration, and no slot of it can be booked', async () => {
    const christmas = nextWeekdayChristmas();
    const day = await slotsOf(christmas);
    expect(day.status).toBe(200);
    expect(day.body).toEqual({ day: christmas, open: false, reason: 'Natividad del Señor', slots: [] });

    const refused = await stack.api.post(
      '/dates',
      { date: canary(`${christmas} 10:00`) },
      patients[0]!.token,
    );
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `El centro está cerrado el ${moment(christmas).format('DD/MM/YYYY')} (Natividad del Señor). Elija otro día`,
    );
    expect(refused.body.errors).toEqual([{ message: refused.body.message, field: 'date' }]);
  });

  it('an ordinary working day lists its free slots', async () => {
    const day = await slotsOf(localHoliday);
    expect(day.body.open).toBe(true);
    expect(day.body.slots).toHaveLength(28);
  });

  it('a local holiday added by the admin closes the day: no slots, bookings by patients and staff refused', async () => {
    const saved = await saveClosures(closures, localHoliday, true);
    expect(saved.body.closures.localHolidays).toEqual(closures.localHolidays);
    expect((await stack.api.get('/config/centre')).body.closures.localHolidays).toEqual(
      closures.localHolidays,
    );
    expect((await slotsOf(localHoliday)).body).toEqual({
      day: localHoliday,
      open: false,
      reason: 'Fiesta local de prueba',
      slots: [],
    });
    const date = canary(`${localHoliday} 09:30`);
    const bySelf = await stack.api.post('/dates', { date }, patients[0]!.token);
    expect(bySelf.status).toBe(400);
    expect(bySelf.body.message).toMatch(
      /^El centro está cerrado el .* \(Fiesta local de prueba\)\. Elija otro día$/,
    );
    const byStaff = await stack.api.post('/dates/admin', { date, pacientId: patients[0]!.id }, staff.ADMIN);
    expect(byStaff.status).toBe(400);
    expect(byStaff.body.message).toBe(bySelf.body.message);
  });

  it('a shortened day offers and books only the slots that end by its closing time', async () => {
    const day = await slotsOf(shortened);
    expect(day.body).toMatchObject({ open: true, closesAt: '12:00', reason: 'Jornada de formación' });
    expect(day.body.slots).toHaveLength(12); // 09:00 … 11:45
    expect(day.body.slots.at(-1)).toBe(canary(`${shortened} 11:45`));
    const late = await stack.api.post('/dates', { date: canary(`${shortened} 17:00`) }, patients[1]!.token);
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/^El .* el centro cierra a las 12:00\. Elija una hora anterior$/);
    const early = await stack.api.post('/dates', { date: canary(`${shortened} 11:45`) }, patients[1]!.token);
    expect(early.status).toBe(201);
  });

  it('only the admin changes the closures; a closure that ends before it starts is refused in Spanish', async () => {
    expect((await stack.api.put('/config/centre/closures', closures, staff.DOCTOR)).status).toBe(403);
    expect((await stack.api.put('/config/centre/closures', closures)).status).toBe(401);
    const bad = await stack.api.put(
      '/config/centre/closures',
      { ...closures, closures: [{ from: '2030-07-10', to: '2030-07-01', reason: 'Obras' }] },
      staff.ADMIN,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('La fecha final no puede ser anterior a la inicial');
    // An empty body would reopen every closed day: refused, and the closures stay.
    const empty = await stack.api.put('/config/centre/closures', {}, staff.ADMIN);
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Envíe los festivos locales, los cierres o las jornadas reducidas');
    expect((await stack.api.get('/config/centre')).body.closures.localHolidays).toEqual(
      closures.localHolidays,
    );
  });
});

describe('closing a day that has appointments', () => {
  it('e-mails each patient of that day, once, with "Cambiar cita" to their area; the appointment stays', async () => {
    const patient = patients[2]!;
    const date = canary(`${closedWithAppointment} 10:00`);
    expect((await stack.api.post('/dates', { date }, patient.token)).status).toBe(201);
    await stack.mail.waitForMessagesTo(patient.email, 1); // the confirmation

    closures.closures = [
      { from: closedWithAppointment, to: closedWithAppointment, reason: 'Obras en la consulta' },
    ];
    await saveClosures(closures, closedWithAppointment, true);
    const mails = await stack.mail.waitForMessagesTo(patient.email, 2);
    const notice = mails.find((mail) => mail.Subject.startsWith('El centro estará cerrado'));
    expect(notice).toBeDefined();
    expect(notice!.Text).toContain('el centro estará cerrado (Obras en la consulta)');
    expect(notice!.Text).toContain('Cambiar cita');
    expect(notice!.HTML).toMatch(/href="[^"]*\/user"[^>]*>\s*Cambiar cita/);
    expect((await stack.api.get('/dates/currentDate', patient.token)).body).toMatchObject({
      date,
      status: 'booked',
      bookingCode: expect.stringMatching(/^[A-Z0-9]{6}$/),
    });

    // Saving the profile again (same closures) tells nobody twice.
    await saveClosures(closures, closedWithAppointment, true);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await stack.mail.messagesTo(patient.email)).toHaveLength(2);
  });
});

describe('the kiosk books walk-ins only while the centre is open', () => {
  it('refuses a walk-in on a day the centre is closed, in Spanish', async () => {
    const today = moment.tz(CENTRE_TIME_ZONE).format('YYYY-MM-DD');
    closures.closures = [...(closures.closures ?? []), { from: today, to: today, reason: 'Inventario' }];
    await saveClosures(closures, today, true);
    for (const path of ['/dates/service', '/dates/service/now']) {
      const response = await stack.api.post(
        path,
        { pacientId: patients[3]!.id, code: await codes(patients[3]!.email) },
        staff.SERVICE_ACCOUNT,
      );
      expect(response.status).toBe(400);
      // Outside opening hours the hours are named; within them, today's closure.
      expect(response.body.message).toMatch(
        /^El centro está cerrado (hoy \(Inventario\)|ahora): no se pueden registrar citas/,
      );
    }
    expect((await stack.api.get('/dates/currentDate', patients[3]!.token)).body).toEqual({ date: null });
  });
});
