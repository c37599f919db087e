/**
 * The staff of a test stack: the bootstrap accounts it is started with (an admin, a doctor, the
 * kiosk), signed in; invited doctors; second-factor codes.
 */
import { authenticator } from 'otplib';
import { linkToken, signInAs, uniqueEmail, type ApiClient, type SignedIn } from '@crm/testing';
import type { Stack } from './stack';

export type StaffAccounts = Record<'admin' | 'doctor' | 'kiosk', { email: string; password: string }>;

/** The bootstrap staff accounts of a test stack, their e-mail addresses under `domain`. */
export const staffAccountsAt = (domain: string): StaffAccounts => ({
  admin: { email: `admin@${domain}`, password: 'Admin1234!' },
  doctor: { email: `doctor@${domain}`, password: 'Doctor1234!' },
  kiosk: { email: `kiosk@${domain}`, password: 'Kiosk1234!' },
});

/** The bootstrap staff accounts of a stack, as environment. */
export function staffAccountsEnv(accounts: StaffAccounts) {
  return {
    BOOTSTRAP_ADMIN_EMAIL: accounts.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: accounts.admin.password,
    BOOTSTRAP_DOCTOR_EMAIL: accounts.doctor.email,
    BOOTSTRAP_DOCTOR_PASSWORD: accounts.doctor.password,
    BOOTSTRAP_KIOSK_EMAIL: accounts.kiosk.email,
    BOOTSTRAP_KIOSK_PASSWORD: accounts.kiosk.password,
  };
}

/** The bootstrap accounts of the API tests' stacks (test-support/stack.ts). */
export const BOOTSTRAP = staffAccountsAt('stack.test');

export type StaffRole = 'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT';

/** A stack's bootstrap doctor, admin and kiosk, signed in through the gateway. */
export async function signedInStaff(
  api: ApiClient,
  accounts: StaffAccounts = BOOTSTRAP,
): Promise<Record<StaffRole, SignedIn>> {
  const [DOCTOR, ADMIN, SERVICE_ACCOUNT] = await Promise.all([
    signInAs(api, accounts.doctor),
    signInAs(api, accounts.admin),
    signInAs(api, accounts.kiosk),
  ]);
  return { DOCTOR, ADMIN, SERVICE_ACCOUNT };
}

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
  const token = linkToken(mail!.Text, 'reset-password');
  const password = 'bata-blanca-consulta-7';
  const reset = await stack.api.post(`/auth/resetPassword/${token}`, { password });
  if (reset.status !== 200) throw new Error(`password not set: ${reset.status}`);
  return { id: invited.body.id as string, email, password, invitation: mail! };
}
