import { CENTRE_PROFILE_SEED, type CentreProfileData } from '@crm/contracts';
import {
  confirmationEmail,
  onboardingCodeEmail,
  passwordResetEmail,
} from '../src/mail/templates/account.templates';
import {
  appointmentBookedEmail,
  appointmentCancelledEmail,
  appointmentDeletedEmail,
} from '../src/mail/templates/appointment.templates';
import type { Email } from '../src/mail/templates/layout';

const centre: CentreProfileData = {
  ...CENTRE_PROFILE_SEED,
  brandName: 'Clínica Vegueta',
  subtitle: 'Centro de Reconocimiento Médico',
  address: 'Calle Obispo Codina 3, 35001 Las Palmas de Gran Canaria',
  phone: '34928999888',
  email: 'hola@vegueta.test',
};
const when = 'lunes, 23 de noviembre de 2026, 09:15';

/** Every e-mail the worker writes, by name. */
const EVERY_EMAIL: Array<[string, Email]> = [
  ['account confirmation', confirmationEmail(centre, 'Ana', 'https://crm.example/confirm-account/abc')],
  ['password reset', passwordResetEmail(centre, 'Ana', 'https://crm.example/reset-password/abc')],
  ['booking', appointmentBookedEmail(centre, 'Ana', when, 'https://crm.example/user')],
  [
    'booking with its code',
    appointmentBookedEmail(centre, 'Ana', when, 'https://crm.example/user', 'KXR4T7', true),
  ],
  ['kiosk code', onboardingCodeEmail(centre, 'Ana', '042917', 10)],
  [
    'cancellation by the patient',
    appointmentCancelledEmail(centre, 'Ana', when, 'PACIENT', 'https://x/dates'),
  ],
  ['cancellation by the centre', appointmentCancelledEmail(centre, 'Ana', when, 'DOCTOR', 'https://x/dates')],
  ['deletion by the centre', appointmentDeletedEmail(centre, 'Ana', when, 'https://x/dates')],
];

/** Words that address the reader as "tú" (the site and the e-mails say "usted"). */
const INFORMAL =
  /\b(tu|tus|te|ti|contigo|has|puedes|tienes|quieres|cancela|confirma|copia|ignora|respondas|ponte|registrarte|añadirla a tu)\b/i;

describe('account e-mails', () => {
  it('writes the confirmation e-mail in Spanish with the link in both HTML and text', () => {
    const mail = confirmationEmail(centre, 'Ana', 'https://crm.example/confirm-account/abc');
    expect(mail.subject).toBe('Confirme su cuenta');
    expect(mail.html).toContain('lang="es"');
    expect(mail.html).toContain('href="https://crm.example/confirm-account/abc"');
    expect(mail.text).toContain('https://crm.example/confirm-account/abc');
    expect(mail.text).toMatch(/^Hola Ana:/);
    expect(mail.text).toContain('Gracias por registrarse en Clínica Vegueta.');
  });

  it('does not make booking depend on confirming the account (unconfirmed accounts book)', () => {
    const { text } = confirmationEmail(centre, 'Ana', 'https://crm.example/confirm-account/abc');
    expect(text).not.toContain('para poder reservar');
    expect(text).toContain('Ya puede reservar su cita');
    expect(text).toContain('se libera si el correo sigue sin confirmar a tiempo');
  });

  it('asks for a new password formally', () => {
    const mail = passwordResetEmail(centre, 'Ana', 'https://crm.example/reset-password/abc');
    expect(mail.subject).toBe('Restablezca su contraseña');
    expect(mail.text).toContain('Si no lo ha solicitado usted, ignore este mensaje');
  });

  it('gives the kiosk code in the body only, with how long it lasts and what to do if it was not asked for', () => {
    const mail = onboardingCodeEmail(centre, 'Ana', '042917', 7);
    expect(mail.subject).toBe('Su código para el quiosco del centro');
    expect(mail.subject).not.toContain('042917');
    expect(mail.text).toContain('Su código: 042917');
    expect(mail.html).toContain('042917');
    expect(mail.text).toContain('El código es válido durante 7 minutos.');
    expect(mail.text).toContain('Si no está usted en el centro, ignore este mensaje');
  });

  it('escapes a name that contains markup', () => {
    const mail = passwordResetEmail(
      centre,
      '<script>alert(1)</script>',
      'https://crm.example/reset-password/abc',
    );
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});

describe.each(EVERY_EMAIL)('the %s e-mail', (_name, mail) => {
  it('addresses the patient as "usted" in the subject, the HTML and the text', () => {
    const visibleHtml = mail.html.replace(/<[^>]+>/g, ' ');
    for (const text of [mail.subject, visibleHtml, mail.text]) expect(text).not.toMatch(INFORMAL);
  });

  it('reads on a phone: a viewport and a fluid column no wider than 600 px', () => {
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).toContain('max-width:600px');
    expect(mail.html).not.toMatch(/width="600"/);
  });

  it("carries the centre profile's brand, address and phone, in the HTML and the text", () => {
    for (const text of [mail.html, mail.text]) {
      expect(text).toContain('Clínica Vegueta');
      expect(text).toContain('Calle Obispo Codina 3, 35001 Las Palmas de Gran Canaria');
      expect(text).toContain('+34 928 999 888');
    }
    expect(mail.html + mail.text).not.toContain(CENTRE_PROFILE_SEED.brandName);
  });
});

it('escapes markup in the centre profile too', () => {
  const mail = confirmationEmail({ ...centre, brandName: '<b>Centro</b>' }, 'Ana', 'https://x/y');
  expect(mail.html).not.toContain('<b>Centro</b>');
  expect(mail.html).toContain('&lt;b&gt;Centro&lt;/b&gt;');
});

describe('cancellation e-mails and the refund', () => {
  it('tells a patient who cancelled in time that it is refunded because of the notice given', () => {
    const { text } = appointmentCancelledEmail(centre, 'Ana', when, 'PACIENT', 'https://x/dates', true);
    expect(text).toContain('Como ha cancelado con más de 24 horas de antelación');
  });

  it.each(['DOCTOR', 'ADMIN'] as const)(
    'never says the patient cancelled when the centre (%s) did',
    (role) => {
      const refunded = appointmentCancelledEmail(centre, 'Ana', when, role, 'https://x/dates', true).text;
      const late = appointmentCancelledEmail(centre, 'Ana', when, role, 'https://x/dates', false).text;
      for (const text of [refunded, late]) {
        expect(text).toContain('El centro ha cancelado su cita');
        expect(text).not.toMatch(/ha cancelado con|faltaban menos/);
      }
      expect(refunded).toContain('Le devolveremos el importe pagado.');
      expect(late).toContain('contacte con nosotros para tramitar el importe');
    },
  );
});
