/**
 * A burst of e-mails, each triggered by one call, and a count of what Mailpit received: every
 * expected e-mail exactly once (none lost, none doubled) within a deadline.
 *  - `kiosk-code` (default): patients registered by the doctor with a password (no e-mail), then
 *    the kiosk asks a one-time code for each (`POST /users/onboarding/code`): one code e-mail each.
 *  - `invitation`: patients registered by the doctor without a password: one "Cree su contraseña" each.
 */
import { sleep } from '@crm/testing';
import { call, describe, inParallel } from './http';
import { mailsTo } from './mailpit';
import { newPerson, registerPatient, runPrefix } from './people';
import { signInStaff } from './staff';
import type { ComposeTarget } from './target';

export type MailKind = 'kiosk-code' | 'invitation';

const SUBJECTS: Record<MailKind, string> = {
  'kiosk-code': 'Su código para el quiosco del centro',
  invitation: 'Cree su contraseña',
};

export interface MailBurst {
  /** Every recipient's address starts with it. */
  prefix: string;
  /** The subject each e-mail starts with. */
  subject: string;
  /** The addresses whose e-mail was triggered (a 2xx answer). */
  recipients: string[];
  failed: Array<{ email: string; reason: string }>;
  ms: number;
}

export async function mailBurst(
  t: ComposeTarget,
  n: number,
  options: {
    kind?: MailKind;
    parallel?: number;
    /** A pause after each call, to spread the burst over a fault (e.g. a broker restart). */
    paceMs?: number;
    /** Runs once the recipients exist, just before the first call (to start a fault). */
    onReady?: () => void | Promise<void>;
  } = {},
): Promise<MailBurst> {
  const { kind = 'kiosk-code', parallel = 10, paceMs = 0 } = options;
  const prefix = runPrefix(kind === 'kiosk-code' ? 'codes' : 'invites');
  const people = Array.from({ length: n }, (_, i) => newPerson(prefix, i));
  const doctor = await signInStaff(t, 'doctor');
  const kiosk = kind === 'kiosk-code' ? await signInStaff(t, 'kiosk') : undefined;
  if (kiosk) await inParallel(people, 5, (person) => registerPatient(t, doctor.token, person));

  await options.onReady?.();
  const started = Date.now();
  const recipients: string[] = [];
  const failed: MailBurst['failed'] = [];
  // No retries: a repeated request would rightly send a second e-mail.
  await inParallel(people, parallel, async ({ password: _password, ...person }) => {
    try {
      const answer = kiosk
        ? await call(t, 'POST', '/users/onboarding/code', {
            token: kiosk.token,
            body: { email: person.email },
          })
        : await call(t, 'POST', '/auth/doctor/patient/create', { token: doctor.token, body: person });
      if (answer.status === 202 || answer.status === 201) recipients.push(person.email);
      else failed.push({ email: person.email, reason: describe(answer) });
    } catch (error) {
      failed.push({ email: person.email, reason: error instanceof Error ? error.message : String(error) });
    }
    if (paceMs > 0) await sleep(paceMs);
  });
  const burst = { prefix, subject: SUBJECTS[kind], recipients, failed, ms: Date.now() - started };
  console.log(
    `mailBurst: ${recipients.length}/${n} ${kind} e-mails triggered, ${failed.length} failed (${burst.ms} ms)`,
  );
  return burst;
}

export interface MailCounts {
  expected: number;
  /** Expected e-mails that arrived (once or more). */
  arrived: number;
  missing: number;
  /** Extra copies of expected e-mails. */
  duplicates: number;
  /** Other e-mails to the run's addresses. */
  unexpected: number;
  /** Until the last expected e-mail arrived (or the deadline). */
  ms: number;
  /** The expected addresses nothing arrived for (the run's made-up addresses). */
  missingAddresses: string[];
}

/**
 * Polls Mailpit until every expected e-mail has arrived or `deadlineMs` has passed, then keeps
 * looking for `settleMs` more so that late duplicates are counted too.
 */
export async function countMails(
  t: ComposeTarget,
  burst: Pick<MailBurst, 'prefix' | 'subject' | 'recipients'>,
  options: { deadlineMs?: number; settleMs?: number } = {},
): Promise<MailCounts> {
  const { deadlineMs = 60_000, settleMs = 3_000 } = options;
  const started = Date.now();
  const expected = new Set(burst.recipients.map((address) => address.toLowerCase()));
  const tally = async () => {
    const perAddress = new Map<string, number>();
    let unexpected = 0;
    for (const mail of await mailsTo(t, burst.prefix)) {
      const to = mail.To[0]?.Address.toLowerCase() ?? '';
      if (expected.has(to) && mail.Subject.startsWith(burst.subject))
        perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
      else unexpected += 1;
    }
    return { perAddress, unexpected };
  };
  let seen = await tally();
  while (seen.perAddress.size < expected.size && Date.now() - started < deadlineMs) {
    await sleep(500);
    seen = await tally();
  }
  const ms = Date.now() - started;
  await sleep(settleMs);
  seen = await tally();
  const copies = [...seen.perAddress.values()];
  const missingAddresses = [...expected].filter((address) => !seen.perAddress.has(address));
  const counts: MailCounts = {
    expected: expected.size,
    arrived: seen.perAddress.size,
    missing: missingAddresses.length,
    duplicates: copies.reduce((sum, n) => sum + n - 1, 0),
    unexpected: seen.unexpected,
    ms,
    missingAddresses,
  };
  console.log(
    `countMails: ${counts.arrived}/${counts.expected} arrived in ${ms} ms, missing ${counts.missing}, duplicates ${counts.duplicates}, unexpected ${counts.unexpected}`,
  );
  return counts;
}
