import { userInvited, userRegistered, userUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { PatientAccessStore } from '../data/patient-access.store';
import type { Mailer } from '../mail/mailer';
import { invitationEmail } from '../mail/templates/invitation.templates';

/**
 * The invitation e-mail of a patient registered by staff or at the kiosk without a password: its
 * link is the reset-password page, which sets the password and confirms the account.
 */
export function invitationMailHandlers(mailer: Mailer, publicUrl: string, profile: CentreProfileReader) {
  return [
    on(userInvited, async (event) => {
      const { name, email, token, expiresAt, channel, rol, mfaRequired } = event.data;
      const centre = await profile.current();
      // `?invitation=1`: the page is titled "Crear contraseña", as the e-mail's button says.
      const link = `${publicUrl}/reset-password/${encodeURIComponent(token)}?invitation=1`;
      const validDays = Math.max(
        1,
        Math.round((Date.parse(expiresAt) - Date.parse(event.occurredAt)) / 86_400_000),
      );
      await mailer.send({
        to: email,
        senderName: centre.senderName,
        ...invitationEmail(centre, name, link, channel, validDays, rol, mfaRequired),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}

/** Keeps the worker's copy of who can sign in, so that e-mails only point to an area one can enter. */
export function patientAccessHandlers(access: PatientAccessStore) {
  const apply = async (data: { id: string; canSignIn?: boolean }) => {
    if (data.canSignIn !== undefined) await access.record(data.id, data.canSignIn);
  };
  return [
    on(userRegistered, (event) => apply(event.data)),
    on(userUpdated, (event) => apply(event.data)),
  ] as const;
}
