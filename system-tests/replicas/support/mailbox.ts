/** Every e-mail Mailpit holds for one recipient domain (this test's own, so other tests' mails never count). */
export interface MailSummary {
  ID: string;
  Subject: string;
  To: Array<{ Address: string }>;
}

const PAGE = 250;

export async function mailsToDomain(mailApiUrl: string, domain: string): Promise<MailSummary[]> {
  const found: MailSummary[] = [];
  for (let start = 0; ; start += PAGE) {
    const query = encodeURIComponent(`to:"@${domain}"`);
    const response = await fetch(`${mailApiUrl}/api/v1/search?query=${query}&start=${start}&limit=${PAGE}`);
    if (!response.ok) throw new Error(`Mailpit answered ${response.status}`);
    const page = (await response.json()) as { messages: MailSummary[]; messages_count: number };
    found.push(...page.messages);
    if (page.messages.length < PAGE || found.length >= page.messages_count) return found;
  }
}

/** Polls until at least `count` e-mails arrived, then waits `settleMs` more so late duplicates show too. */
export async function waitForMails(
  mailApiUrl: string,
  domain: string,
  count: number,
  { timeoutMs = 40_000, settleMs = 2_000 } = {},
): Promise<MailSummary[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await mailsToDomain(mailApiUrl, domain);
    if (found.length >= count) break;
    if (Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  return mailsToDomain(mailApiUrl, domain);
}
