import {
  CENTRE_PROFILE_SEED,
  CENTRE_TIME_ZONE,
  dayStatus,
  type CentreProfile,
  type CentreProfileBody,
} from '@crm/contracts';
import { eventually, type CaughtMail } from '@crm/testing';
import moment from 'moment-timezone';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';
import type { NotificationsService } from '../src/app';
import { loadNotificationsConfig, senderAddress } from '../src/config';

/**
 * The e-mails follow the centre profile: an admin changes it through the gateway and the next
 * booking e-mail, its `.ics` and the next account e-mail show the new address and sender, with no
 * restart. Real stack (auth, config, appointments, the e-mail worker) and the real Mailpit. The
 * worker keeps the profile for ten minutes here, so only the config service's event can refresh it.
 */
let stack: Stack;
let worker: NotificationsService;
let tokens: { ADMIN: string; DOCTOR: string };

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'config', 'appointments', 'notifications'],
    env: { CENTRE_PROFILE_TTL_MS: '600000' },
  });
  worker = stack.components.notifications!.handle as NotificationsService;
  const [ADMIN, DOCTOR] = await Promise.all([
    stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
    stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password),
  ]);
  tokens = { ADMIN, DOCTOR };
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** A patient registered by the doctor (confirmed), signed in. */
async function patient(label: string) {
  const person = {
    name: `Paciente ${label}`,
    phone: '612345678',
    email: uniqueEmail(label),
    password: 'contraseña-1',
  };
  const created = await stack.api.post('/auth/doctor/patient/create', person, tokens.DOCTOR);
  expect(created.status).toBe(201);
  return { ...person, token: await stack.signIn(person.email, person.password) };
}

/** A slot at `HH:mm` on the first weekday three weeks from now (centre time). */
function slot(time: string): string {
  const day = moment.tz(CENTRE_TIME_ZONE).add(3, 'weeks').startOf('day');
  while (day.isoWeekday() > 5 || !dayStatus(day.format('YYYY-MM-DD')).open) day.add(1, 'day');
  return moment.tz(`${day.format('YYYY-MM-DD')} ${time}`, 'YYYY-MM-DD HH:mm', CENTRE_TIME_ZONE).toISOString();
}

async function bookingMail(label: string, time: string): Promise<{ mail: CaughtMail; ics: string }> {
  const person = await patient(label);
  const booked = await stack.api.post('/dates', { date: slot(time) }, person.token);
  expect(booked.status).toBe(201);
  const [mail] = await stack.mail.waitForMessagesTo(person.email, 1, 20_000);
  const attachment = mail!.Attachments.find((a) => a.FileName === 'cita.ics')!;
  // Unfolded: long lines are folded at 75 octets.
  const ics = (await stack.mail.attachment(mail!.ID, attachment.PartID)).replace(/\r\n /g, '');
  return { mail: mail!, ics };
}

const fromOf = (mail: CaughtMail) => (mail as CaughtMail & { From: { Name: string; Address: string } }).From;
const replyToOf = (mail: CaughtMail) =>
  (mail as CaughtMail & { ReplyTo?: Array<{ Address: string }> }).ReplyTo?.map((r) => r.Address);
const icsText = (text: string) => text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,');

it('sends the booking e-mail and its .ics with the address and sender an admin has just saved', async () => {
  const mailAddress = senderAddress(loadNotificationsConfig(stack.env).MAIL_FROM);

  const before = await bookingMail('antes', '09:00');
  expect(before.mail.Text).toContain(CENTRE_PROFILE_SEED.address);
  expect(before.ics).toContain(`\r\nLOCATION:${icsText(CENTRE_PROFILE_SEED.address)}\r\n`);
  expect(fromOf(before.mail)).toEqual({ Name: CENTRE_PROFILE_SEED.senderName, Address: mailAddress });
  expect(replyToOf(before.mail)).toEqual([CENTRE_PROFILE_SEED.email]);
  expect(before.ics).toContain(
    `\r\nORGANIZER;CN="${CENTRE_PROFILE_SEED.senderName}":mailto:${CENTRE_PROFILE_SEED.email}\r\n`,
  );

  const changed: CentreProfileBody = {
    ...CENTRE_PROFILE_SEED,
    brandName: 'Reconocimientos Vegueta',
    senderName: 'Citas Reconocimientos Vegueta',
    address: 'Calle Obispo Codina 7, 35001 Las Palmas de Gran Canaria',
    phone: '928 111 222',
    email: 'hola@vegueta.test',
  };
  const saved = await stack.api.put<CentreProfile>('/config/centre', changed, tokens.ADMIN);
  expect(saved.status).toBe(200);
  expect(saved.body.version).toBe(2);
  // The worker hears config.centre.updated.v1 (its copy would otherwise live ten more minutes).
  await eventually(
    async () => (worker.centre.announcedVersion() >= 2 ? true : undefined),
    10_000,
    'event heard',
  );

  const after = await bookingMail('despues', '09:15');
  for (const body of [after.mail.Text, after.mail.HTML]) {
    expect(body).toContain(changed.address);
    expect(body).toContain('Reconocimientos Vegueta');
    expect(body).toContain('+34 928 111 222');
    expect(body).not.toContain(CENTRE_PROFILE_SEED.address);
  }
  expect(after.mail.HTML).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  expect(after.ics).toContain(`\r\nLOCATION:${icsText(changed.address)}\r\n`);
  // Replies and the calendar's organiser are the centre's e-mail; the sender stays MAIL_FROM's.
  expect(after.ics).toContain(
    '\r\nORGANIZER;CN="Citas Reconocimientos Vegueta":mailto:hola@vegueta.test\r\n',
  );
  expect(replyToOf(after.mail)).toEqual(['hola@vegueta.test']);
  expect(after.ics).toContain('\r\nSUMMARY:Cita en Reconocimientos Vegueta\r\n');
  expect(after.ics).not.toContain(icsText(CENTRE_PROFILE_SEED.address));
  expect(fromOf(after.mail)).toEqual({ Name: 'Citas Reconocimientos Vegueta', Address: mailAddress });

  // Account e-mails follow the same profile.
  const person = await patient('reset');
  expect(
    (await stack.api.post('/auth/forgotPassword', { name: person.name, email: person.email })).status,
  ).toBe(200);
  const [reset] = await stack.mail.waitForMessagesTo(person.email, 1, 20_000);
  expect(reset!.Subject).toBe('Restablezca su contraseña');
  expect(reset!.Text).toContain(changed.address);
  expect(fromOf(reset!)).toEqual({ Name: 'Citas Reconocimientos Vegueta', Address: mailAddress });
  expect(replyToOf(reset!)).toEqual(['hola@vegueta.test']);
}, 90_000);
