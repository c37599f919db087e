import { eventually, sleep, type CaughtMailSummary, type MailCatcher } from '@crm/testing';

/**
 * Polls until at least `count` e-mails to the recipient domain arrived (this test's own, so other
 * tests' mails never count), then waits `settleMs` more so late duplicates show too.
 */
export async function waitForMails(
  mail: MailCatcher,
  domain: string,
  count: number,
  { timeoutMs = 40_000, settleMs = 2_000 } = {},
): Promise<CaughtMailSummary[]> {
  await eventually(
    async () => (await mail.messagesTo(`@${domain}`)).length >= count,
    timeoutMs,
    `${count} e-mails to @${domain}`,
    { intervalMs: 500 },
  ).catch(() => undefined); // the test compares what came with what was expected
  await sleep(settleMs);
  return mail.messagesTo(`@${domain}`);
}
