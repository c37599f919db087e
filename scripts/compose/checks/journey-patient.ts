/**
 * The patient's half of the journey: signs up, confirms the address through the link in the
 * e-mail, signs in, books a slot and receives the booking e-mail with its calendar file.
 */
import { bookOwnSlot, type Booking } from './booking';
import { call, expectStatus } from './http';
import { linkPath, readPart, waitForMail } from './mailpit';
import { newPerson, type PatientAccount, runPrefix, signInPatient, signUp } from './people';
import { freeSlots } from './slots';
import { type CheckResult, type ComposeTarget, step } from './target';

export async function patientSignsUpAndConfirms(
  t: ComposeTarget,
  results: CheckResult[],
): Promise<{ patient: PatientAccount; token: string }> {
  const patient = await step(results, 'patient signs up', async () => {
    const account = await signUp(t, newPerson(runPrefix('journey'), 0));
    return { value: account, detail: `${account.email} (id ${account.id})` };
  });

  await step(results, 'confirmation e-mail', async () => {
    const mail = await waitForMail(t, patient.email, 'Confirme su cuenta');
    const path = linkPath(mail.Text, 'confirm-account');
    // The link opens the shell's page (as a browser asks for it), which asks the API with the token.
    const page = await fetch(`${t.gatewayUrl}${path}`, { headers: { accept: 'text/html' } });
    if (page.status !== 200 || !(page.headers.get('content-type') ?? '').includes('text/html'))
      throw new Error(`the link's page answered ${page.status} ${page.headers.get('content-type')}`);
    const token = path.split('/').pop()!;
    const confirmed = expectStatus(
      await call(t, 'GET', `/auth/confirmAccount/${token}`),
      200,
      'confirmation',
    );
    return {
      value: undefined,
      detail: `"${mail.Subject}", link ${path.slice(0, 24)}…: ${confirmed.body.message}`,
    };
  });

  const token = await step(results, 'patient signs in', async () => {
    const session = await signInPatient(t, patient);
    if (!session.confirmed) throw new Error('signed in, but the account is still unconfirmed');
    return { value: session.token, detail: `confirmed: ${session.confirmed}` };
  });
  return { patient, token };
}

export async function patientBooksAndGetsTheEmail(
  t: ComposeTarget,
  results: CheckResult[],
  patient: PatientAccount,
  token: string,
): Promise<Booking> {
  const booking = await step(results, 'patient books a slot', async () => {
    const taken = new Set<string>();
    const next = async () => {
      const [slot] = await freeSlots(t, 1, { exclude: taken });
      taken.add(slot!);
      return slot!;
    };
    const made = await bookOwnSlot(t, token, next);
    return { value: made, detail: `${made.slot}, booking code ${made.bookingCode}` };
  });

  await step(results, 'booking e-mail with its .ics', async () => {
    const mail = await waitForMail(t, patient.email, 'Cita confirmada');
    const ics = mail.Attachments.find((part) => part.ContentType.startsWith('text/calendar'));
    if (!ics)
      throw new Error(
        `no text/calendar attachment (${mail.Attachments.map((a) => a.ContentType).join(', ') || 'none'})`,
      );
    const calendar = await readPart(t, mail.ID, ics.PartID);
    if (!calendar.includes('BEGIN:VCALENDAR')) throw new Error(`${ics.FileName} is not a calendar`);
    if (!calendar.includes(`UID:appointment-${booking.appointmentId}@`))
      throw new Error(`${ics.FileName} names another appointment`);
    if (booking.bookingCode && !mail.Text.includes(booking.bookingCode))
      throw new Error('the e-mail does not show the booking code');
    return {
      value: undefined,
      detail: `"${mail.Subject}", ${ics.FileName} (${ics.ContentType.split(';')[0]})`,
    };
  });
  return booking;
}
