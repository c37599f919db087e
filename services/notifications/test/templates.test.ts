import { confirmationEmail, passwordResetEmail } from '../src/mail/templates/account.templates';

describe('account e-mails', () => {
  it('writes the confirmation e-mail in Spanish with the link in both HTML and text', () => {
    const mail = confirmationEmail('Ana', 'https://crm.example/confirm-account/abc');
    expect(mail.subject).toBe('Confirma tu cuenta');
    expect(mail.html).toContain('lang="es"');
    expect(mail.html).toContain('href="https://crm.example/confirm-account/abc"');
    expect(mail.text).toContain('https://crm.example/confirm-account/abc');
    expect(mail.text).toMatch(/^Hola Ana,/);
  });

  it('escapes a name that contains markup', () => {
    const mail = passwordResetEmail('<script>alert(1)</script>', 'https://crm.example/reset-password/abc');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});
