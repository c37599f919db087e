import { confirmationRequested, passwordResetRequested } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { Mailer } from '../mail/mailer';
import { confirmationEmail, passwordResetEmail } from '../mail/templates/account.templates';

/** E-mails of the account flows: the confirmation link after sign-up and the password reset link. */
export function accountMailHandlers(mailer: Mailer, publicUrl: string, profile: CentreProfileReader) {
  return [
    on(confirmationRequested, async (event) => {
      const { name, email, token } = event.data;
      const centre = await profile.current();
      const link = `${publicUrl}/confirm-account/${encodeURIComponent(token)}`;
      await mailer.send({
        to: email,
        senderName: centre.senderName,
        ...confirmationEmail(centre, name, link),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
    on(passwordResetRequested, async (event) => {
      const { name, email, token } = event.data;
      const centre = await profile.current();
      const link = `${publicUrl}/reset-password/${encodeURIComponent(token)}`;
      await mailer.send({
        to: email,
        senderName: centre.senderName,
        ...passwordResetEmail(centre, name, link),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
