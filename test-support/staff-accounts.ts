import { authenticator } from 'otplib';
import { uniqueEmail, type Stack } from './stack';

/**
 * A TOTP code `offset` 30-second steps from now. The server accepts one step either side of its own,
 * each once: tests set up with this step's code and sign in with the next step's, so they never collide.
 */
export const codeAt = (secret: string, offset = 0) =>
  authenticator.clone({ epoch: Date.now() + offset * 30_000 }).generate(secret);

/** A doctor an admin invited, who set their password through the e-mailed link. */
export async function invitedDoctor(stack: Stack, adminToken: string, label: string) {
  const email = uniqueEmail(label);
  const invited = await stack.api.post(
    '/users/staff',
    { name: `Dra. ${label}`, email, rol: 'DOCTOR' },
    adminToken,
  );
  if (invited.status !== 201) throw new Error(`invitation failed: ${invited.status}`);
  const [mail] = await stack.mail.waitForMessagesTo(email, 1);
  const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.Text)![1]!;
  const password = 'bata-blanca-consulta-7';
  const reset = await stack.api.post(`/auth/resetPassword/${token}`, { password });
  if (reset.status !== 200) throw new Error(`password not set: ${reset.status}`);
  return { id: invited.body.id as string, email, password, invitation: mail! };
}
