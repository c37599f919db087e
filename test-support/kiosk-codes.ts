import { eventually, type ApiClient, type MailCatcher } from '@crm/testing';

/** The subject of the e-mail that carries the kiosk's one-time code (services/notifications). */
export const KIOSK_CODE_SUBJECT = 'Su código para el quiosco del centro';

/** A code is used for this long, well inside its 10 minutes, then asked for again. */
const REUSE_MS = 5 * 60_000;

/** The kiosk code e-mails the address has received so far (their ids): what `arrivingKioskCode` waits past. */
export async function kioskCodeMails(mail: MailCatcher, email: string): Promise<Set<string>> {
  const mails = await mail.messagesTo(email);
  return new Set(mails.filter((m) => m.Subject === KIOSK_CODE_SUBJECT).map((m) => m.ID));
}

/** The code of the first kiosk code e-mail to `email` that is not among `before`, read as the person reads it. */
export async function arrivingKioskCode(
  mail: MailCatcher,
  email: string,
  before: ReadonlySet<string>,
): Promise<string> {
  const fresh = await eventually(
    async () =>
      (await mail.messagesTo(email)).find((m) => !before.has(m.ID) && m.Subject === KIOSK_CODE_SUBJECT),
    // Late is allowed (a loaded machine retries a send after 1 s, then 5 s, then 15 s); lost is not.
    25_000,
    `a kiosk code e-mail to ${email}`,
    { intervalMs: 150 },
  );
  const code = /Su código: (\d{6})/.exec((await mail.message(fresh.ID)).Text)?.[1];
  if (!code) throw new Error('the code e-mail carries no code');
  return code;
}

/**
 * The one-time code of a patient's account, as the person at the kiosk gets it: the kiosk asks for
 * it (`POST /users/onboarding/code`) and it is read from the e-mail that arrives.
 */
export async function emailedKioskCode(
  stack: { api: ApiClient; mail: MailCatcher },
  kioskToken: string,
  email: string,
): Promise<string> {
  const before = await kioskCodeMails(stack.mail, email);
  const asked = await stack.api.post('/users/onboarding/code', { email }, kioskToken);
  if (asked.status !== 202) throw new Error(`code request answered ${asked.status}`);
  return arrivingKioskCode(stack.mail, email, before);
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
