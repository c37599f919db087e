/**
 * Staff sign-in as the back office and the kiosk do it, second factor included: when the auth
 * service asks the account to enrol (a role in MFA_REQUIRED_ROLES without a factor), the checks
 * enrol it like a person with an authenticator app would and keep the secret on the target, so the
 * next sign-in answers the challenge with a fresh code.
 */
import type { MfaChallengeResponse, MfaSetupResponse, Role, SignInResponse } from '@crm/contracts';
import { call, callUntilAnswered, expectStatus } from './http';
import { type ComposeTarget, type StaffName, staffEmail } from './target';
import { freshTotp } from './totp';

export interface Session {
  id: string;
  rol: Role;
  token: string;
}

export interface StaffSession extends Session {
  /** `enrolled`: this sign-in set the second factor up; `code`: it answered the challenge. */
  secondFactor: 'none' | 'enrolled' | 'code';
}

const sessionOf = (body: SignInResponse): Session => ({
  id: body.id,
  rol: body.rol,
  token: body.sessiontoken,
});

/** Signs an account in with its password (repeated while the product cannot answer). */
export async function signIn(
  t: ComposeTarget,
  email: string,
  password: string,
): Promise<SignInResponse | MfaChallengeResponse> {
  const answer = await callUntilAnswered(() =>
    call(t, 'POST', '/auth/signIn', { body: { email, password } }),
  );
  return expectStatus(answer, 200, `sign-in of ${email}`).body;
}

export async function signInStaff(t: ComposeTarget, who: StaffName): Promise<StaffSession> {
  const email = staffEmail(t, who);
  const first = await signIn(t, email, t.staffPasswords[who]);
  if (!('mfaRequired' in first)) return { ...sessionOf(first), secondFactor: 'none' };

  if (first.mfaSetupRequired) {
    const setup = await call(t, 'POST', '/auth/signIn/mfa/setup', { body: { mfaToken: first.mfaToken } });
    const { secret } = expectStatus(setup, 200, `second-factor setup of ${email}`).body as MfaSetupResponse;
    t.totpSecrets = { ...t.totpSecrets, [who]: secret };
    const confirm = await call(t, 'POST', '/auth/signIn/mfa/confirm', {
      body: { mfaToken: first.mfaToken, code: await freshTotp(secret) },
    });
    const body = expectStatus(confirm, 200, `second-factor enrolment of ${email}`).body as SignInResponse;
    return { ...sessionOf(body), secondFactor: 'enrolled' };
  }

  const secret = t.totpSecrets?.[who];
  if (!secret)
    throw new Error(
      `${email} has a second factor and the target holds no authenticator secret for it (totpSecrets.${who})`,
    );
  const answerWithCode = async () =>
    call(t, 'POST', '/auth/signIn/mfa', {
      body: { mfaToken: first.mfaToken, code: await freshTotp(secret) },
    });
  let answer = await answerWithCode();
  // Another process may have used this 30-second step's code a moment ago: the next one is fresh.
  if (answer.status === 401) answer = await answerWithCode();
  return { ...sessionOf(expectStatus(answer, 200, `second factor of ${email}`).body), secondFactor: 'code' };
}
