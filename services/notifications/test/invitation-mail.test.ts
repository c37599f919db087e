import { randomUUID } from 'node:crypto';
import { appointmentBooked, CENTRE_PROFILE_SEED, userInvited, type CentreProfileData } from '@crm/contracts';
import { createEnvelope, type HandlerContext } from '@crm/event-bus';
import type { PatientAccessReader } from '../src/data/patient-access.store';
import { invitationMailHandlers } from '../src/events/account-access.consumer';
import { appointmentMailHandlers } from '../src/events/appointment-mail.consumer';
import type { Mailer, OutgoingMail } from '../src/mail/mailer';
import { invitationEmail } from '../src/mail/templates/invitation.templates';

const centre: CentreProfileData = {
  ...CENTRE_PROFILE_SEED,
  brandName: 'Clínica Vegueta',
  senderName: 'Citas Clínica Vegueta',
  address: 'Calle Obispo Codina 3, 35001 Las Palmas de Gran Canaria',
};
/** Words that address the reader as "tú" (the e-mails say "usted"). */
const INFORMAL = /\b(tu|tus|te|ti|puedes|tienes|crea|abre|ignora|entra)\b/i;
const context: HandlerContext = { queue: 'q', attempt: 1, redelivered: false };

const sent: OutgoingMail[] = [];
const mailer: Mailer = { send: async (mail) => void sent.push(mail), close: () => undefined };
beforeEach(() => (sent.length = 0));

describe('invitation e-mail', () => {
  it.each(['staff', 'kiosk'] as const)(
    'invites a %s-registered patient formally, with the link and a viewport',
    (channel) => {
      const mail = invitationEmail(
        centre,
        'Pedro <b>Gil</b>',
        'https://crm.example/reset-password/abc',
        channel,
        7,
      );
      expect(mail.subject).toBe('Cree su contraseña para acceder a su área de paciente');
      expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(mail.html).toContain('href="https://crm.example/reset-password/abc"');
      expect(mail.html).toContain('Pedro &lt;b&gt;Gil&lt;/b&gt;');
      expect(mail.text).toContain('Crear mi contraseña: https://crm.example/reset-password/abc');
      expect(mail.text).toContain('válido durante 7 días');
      expect(mail.text).toContain(
        channel === 'kiosk'
          ? 'terminal de recepción de Clínica Vegueta'
          : 'El personal de Clínica Vegueta le ha registrado',
      );
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(INFORMAL);
    },
  );

  it('promises the staff member a second factor only when their role must set one up', async () => {
    const [[, handler]] = invitationMailHandlers(mailer, 'http://crm.test', { current: async () => centre });
    const invite = (mfaRequired?: boolean) =>
      createEnvelope(
        userInvited,
        {
          userId: 'u2',
          name: 'Marta Suárez',
          email: 'marta@example.test',
          token: 'tok',
          expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
          channel: 'staffAccount',
          rol: 'DOCTOR',
          ...(mfaRequired === undefined ? {} : { mfaRequired }),
        },
        randomUUID(),
      );
    await handler(invite(false), context);
    await handler(invite(undefined), context);
    await handler(invite(true), context);
    const [without, older, withMfa] = sent.map((mail) => mail.text);
    for (const text of [without, older]) {
      expect(text).not.toContain('dos pasos');
      expect(text).toContain('Crear mi contraseña');
    }
    expect(withMfa).toContain('configure la verificación en dos pasos');
  });

  it('sends it to the patient from the userInvited event, the event id as message id', async () => {
    const [[, handler]] = invitationMailHandlers(mailer, 'http://crm.test', { current: async () => centre });
    const occurredAt = new Date();
    const event = createEnvelope(
      userInvited,
      {
        userId: 'u1',
        name: 'Pedro Gil',
        email: 'pedro@example.test',
        token: 'tok_en-123',
        expiresAt: new Date(occurredAt.getTime() + 7 * 86_400_000).toISOString(),
        channel: 'kiosk',
      },
      randomUUID(),
    );
    await handler(event, context);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      to: 'pedro@example.test',
      senderName: 'Citas Clínica Vegueta',
      messageId: `<${event.id}@crm.events>`,
    });
    expect(sent[0]!.text).toContain('http://crm.test/reset-password/tok_en-123?invitation=1');
    expect(sent[0]!.text).toContain('válido durante 7 días');
  });
});

describe('booking e-mail and the patient area', () => {
  const booked = (byRol: 'PACIENT' | 'SERVICE_ACCOUNT' | 'DOCTOR', pacientId: string) =>
    createEnvelope(
      appointmentBooked,
      {
        id: 'a1',
        date: '2026-11-23T09:15:00.000Z',
        pacientId,
        user: { id: pacientId, name: 'Pedro Gil', email: 'pedro@example.test' },
        channel: byRol === 'SERVICE_ACCOUNT' ? 'kiosk' : 'patient',
        by: { id: byRol === 'PACIENT' ? pacientId : 's1', rol: byRol },
      },
      randomUUID(),
    );
  const access: PatientAccessReader = {
    canSignIn: async (id) => ({ withPassword: true, withoutPassword: false })[id as 'withPassword'],
  };
  const handler = appointmentMailHandlers(
    mailer,
    'http://crm.test',
    {
      current: async () => centre,
    },
    access,
  ).find(([contract]) => contract.name === appointmentBooked.name)![1] as (
    event: unknown,
    context: HandlerContext,
  ) => Promise<void>;

  it.each([
    ['booked by the patient', booked('PACIENT', 'unknown'), true],
    ['booked by a doctor for a patient with a password', booked('DOCTOR', 'withPassword'), true],
    ['booked by a doctor for a patient without a password', booked('DOCTOR', 'withoutPassword'), false],
    ['booked by a doctor for a patient the worker has not heard of', booked('DOCTOR', 'unknown'), false],
  ])('%s: links to the area only if the patient can enter it', async (_case, event, promised) => {
    await handler(event, context);
    const [mail] = sent;
    expect(mail!.text.includes('http://crm.test/user')).toBe(promised);
    expect(/área de paciente/.test(mail!.text)).toBe(promised);
    if (!promised) expect(mail!.text).toContain('avísenos por teléfono o por correo electrónico');
  });

  it('tells a kiosk walk-in, already at the centre, only that it is registered: no area, no calendar file', async () => {
    await handler(booked('SERVICE_ACCOUNT', 'withPassword'), context);
    const [mail] = sent;
    expect(mail!.subject).toBe('Registrado en el centro');
    expect(mail!.text).not.toContain('http://crm.test/user');
    expect(mail!.attachments ?? []).toHaveLength(0);
  });
});
