import moment from 'moment-timezone';
import type { Page } from 'playwright-core';
import { dayStatus } from '@crm/contracts';
import { BOOTSTRAP, createConfirmedPatient, type Stack } from './product';

const CENTRE_TZ = 'Atlantic/Canary';

/**
 * The open weekdays (Monday to Friday, no public holiday) of next month at the centre, as
 * "YYYY-MM-DD": always in the future, and what the calendars offer after one "Mes siguiente".
 */
export function nextMonthWeekdays(now = Date.now()): string[] {
  const first = moment.tz(now, CENTRE_TZ).startOf('month').add(1, 'month');
  const days: string[] = [];
  for (const day = first.clone(); day.month() === first.month(); day.add(1, 'day')) {
    if (day.day() !== 0 && day.day() !== 6 && dayStatus(day.format('YYYY-MM-DD')).open)
      days.push(day.format('YYYY-MM-DD'));
  }
  return days;
}

/** The instant of "HH:mm" on a day, wall-clock time at the centre. */
export const centreInstant = (day: string, time: string): string =>
  moment.tz(`${day} ${time}`, 'YYYY-MM-DD HH:mm', CENTRE_TZ).toISOString();

export interface SeededAppointment {
  id: string;
  date: string;
  patient: { id: string; name: string; email: string; password: string };
}

/** Books `date` for a patient as staff (`POST /dates/admin`); throws with the server's answer if refused. */
export async function bookAsStaff(
  stack: Stack,
  staffToken: string,
  date: string,
  pacientId: string,
): Promise<{ id: string; date: string }> {
  const response = await stack.api.post<{ id: string; date: string }>(
    '/dates/admin',
    { date, pacientId },
    staffToken,
  );
  if (response.status !== 201)
    throw new Error(`booking failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Registers each patient and books them the given slot through the API, as the doctor. */
export async function seedAppointments(
  stack: Stack,
  bookings: Array<{ name: string; date: string }>,
): Promise<SeededAppointment[]> {
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  const seeded: SeededAppointment[] = [];
  for (const { name, date } of bookings) {
    const patient = await createConfirmedPatient(stack, name);
    const { id } = await bookAsStaff(stack, doctor, date, patient.id);
    seeded.push({ id, date, patient: { ...patient, name } });
  }
  return seeded;
}

/** The text of every cell of one column (by header text) of the table with this accessible name. */
export async function columnTexts(page: Page, table: string, header: string): Promise<string[]> {
  const grid = page.getByRole('table', { name: table });
  const headers = await grid.locator('thead th').allTextContents();
  const index = headers.findIndex((h) => h.replace(/[▲▼↕]/g, '').trim() === header);
  if (index < 0) throw new Error(`no column "${header}" in ${JSON.stringify(headers)}`);
  return (await grid.locator(`tbody tr td:nth-child(${index + 1})`).allTextContents()).map((t) => t.trim());
}
