import { confirmationRequested, passwordResetRequested } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { Mailer } from '../mail/mailer';
import { confirmationEmail, passwordResetEmail } from '../mail/templates/account.templates';

/** E-mails of the account flows: the confirmation link after sign-up and the password reset link. */
export function accountMailHandlers(mailer: Mailer, publicUrl: string) {
  return [
    on(confirmationRequested, async (event) => {
      const { name, email, token } = event.data;
      const link = `${publicUrl}/confirm-account/${encodeURIComponent(token)}`;
      await mailer.send({
        to: email,
        ...confirmationEmail(name, link),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
    on(passwordResetRequested, async (event) => {
      const { name, email, token } = event.data;
      const link = `${publicUrl}/reset-password/${encodeURIComponent(token)}`;
      await mailer.send({
        to: email,
        ...passwordResetEmail(name, link),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
