import type { ApiClient, MailCatcher } from '@crm/testing';

/** The subject of the e-mail that carries the kiosk's one-time code (services/notifications). */
export const KIOSK_CODE_SUBJECT = 'Su código para el quiosco del centro';

/** A code is used for this long, well inside its 10 minutes, then asked for again. */
const REUSE_MS = 5 * 60_000;

/**
 * The one-time code of a patient's account, as the person at the kiosk gets it: the kiosk asks for
 * it (`POST /users/onboarding/code`) and it is read from the e-mail that arrives.
 */
export async function emailedKioskCode(
  stack: { api: ApiClient; mail: MailCatcher },
  kioskToken: string,
  email: string,
): Promise<string> {
  const before = new Set((await stack.mail.messagesTo(email)).map((message) => message.ID));
  const asked = await stack.api.post('/users/onboarding/code', { email }, kioskToken);
  if (asked.status !== 202) throw new Error(`code request answered ${asked.status}`);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const fresh = (await stack.mail.messagesTo(email)).find(
      (message) => !before.has(message.ID) && message.Subject === KIOSK_CODE_SUBJECT,
    );
    if (fresh) {
      const code = /Su código: (\d{6})/.exec((await stack.mail.message(fresh.ID)).Text)?.[1];
      if (!code) throw new Error('the code e-mail carries no code');
      return code;
    }
    if (Date.now() > deadline) throw new Error(`no kiosk code e-mail to ${email} within 15 s`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/**
 * The kiosk's codes for a test file: one e-mailed code per address, asked once (parallel callers
 * share the request: a second request would replace the first code) and reused for a few minutes.
 */
export function kioskCodes(stack: () => { api: ApiClient; mail: MailCatcher }, kioskToken: () => string) {
  const known = new Map<string, { code: Promise<string>; at: number }>();
  return (email: string): Promise<string> => {
    const held = known.get(email);
    if (held && Date.now() - held.at < REUSE_MS) return held.code;
    const code = emailedKioskCode(stack(), kioskToken(), email);
    known.set(email, { code, at: Date.now() });
    code.catch(() => known.delete(email));
    return code;
  };
}
