/**
 * Reading the product's e-mails from Mailpit's HTTP API (`GET /api/v1/search`,
 * `GET /api/v1/message/{ID}`, `GET /api/v1/message/{ID}/part/{PartID}`), as a person reads their inbox.
 */
import { eventually } from '@crm/testing';
import type { ComposeTarget } from './target';

export interface MailSummary {
  ID: string;
  Subject: string;
  To: Array<{ Address: string }>;
}

export interface MailPart {
  FileName: string;
  ContentType: string;
  PartID: string;
}

export interface Mail extends MailSummary {
  Text: string;
  HTML: string;
  Attachments: MailPart[];
  Inline: MailPart[];
}

const PAGE = 250;

async function mailpit<T>(t: ComposeTarget, path: string): Promise<T> {
  const response = await fetch(`${t.mailApiUrl}/api/v1${path}`, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`Mailpit answered ${response.status} to ${path}`);
  return (await response.json()) as T;
}

/** Every message to an address, or to any address containing `part` (a run's unique prefix). */
export async function mailsTo(t: ComposeTarget, part: string): Promise<MailSummary[]> {
  const query = encodeURIComponent(`to:"${part}"`);
  const found: MailSummary[] = [];
  for (let start = 0; ; start += PAGE) {
    const page = await mailpit<{ messages: MailSummary[] }>(
      t,
      `/search?query=${query}&start=${start}&limit=${PAGE}`,
    );
    found.push(...page.messages);
    if (page.messages.length < PAGE) return found;
  }
}

export const readMail = (t: ComposeTarget, id: string): Promise<Mail> => mailpit<Mail>(t, `/message/${id}`);

export async function readPart(t: ComposeTarget, id: string, partId: string): Promise<string> {
  const response = await fetch(`${t.mailApiUrl}/api/v1/message/${id}/part/${partId}`);
  if (!response.ok) throw new Error(`Mailpit answered ${response.status} for part ${partId}`);
  return response.text();
}

/** The first e-mail to `address` whose subject starts with `subject`, once it has arrived. */
export async function waitForMail(
  t: ComposeTarget,
  address: string,
  subject: string,
  timeoutMs = 30_000,
): Promise<Mail> {
  const summary = await eventually(
    async () => (await mailsTo(t, address)).find((mail) => mail.Subject.startsWith(subject)),
    timeoutMs,
    `e-mail "${subject}" to ${address}`,
  );
  return readMail(t, summary.ID);
}

/** The path of the first link to `/<route>/<token>` in an e-mail's text (`/confirm-account/…`). */
export function linkPath(text: string, route: string): string {
  const path = new RegExp(`/${route}/[A-Za-z0-9_-]+`).exec(text)?.[0];
  if (!path) throw new Error(`no /${route}/ link in the e-mail`);
  return path;
}
