import {
  confirmationRequested,
  onboardingCodeRequested,
  passwordResetRequested,
  secondFactorLocked,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { Mailer } from '../mail/mailer';
import {
  confirmationEmail,
  onboardingCodeEmail,
  passwordResetEmail,
} from '../mail/templates/account.templates';
import { secondFactorLockedEmail } from '../mail/templates/second-factor.templates';

/**
 * E-mails of the account flows: the confirmation link after sign-up, the password reset link, the
 * kiosk's one-time code, and the warning that the second factor was locked after too many wrong codes.
 */
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
    on(onboardingCodeRequested, async (event) => {
      const { name, email, token, expiresAt } = event.data;
      // An e-mail delivered late says how long the code still lives, not how long it lived.
      const minutes = Math.ceil((Date.parse(expiresAt) - Date.now()) / 60_000);
      if (minutes <= 0) return;
      const centre = await profile.current();
      await mailer.send({
        to: email,
        senderName: centre.senderName,
        ...onboardingCodeEmail(centre, name, token, minutes),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
    on(secondFactorLocked, async (event) => {
      const { name, email, failures, lockedUntil } = event.data;
      const centre = await profile.current();
      await mailer.send({
        to: email,
        senderName: centre.senderName,
        ...secondFactorLockedEmail(centre, name, failures, new Date(lockedUntil)),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
