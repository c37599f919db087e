import { eventually } from './polling';

/** Reads e-mails from Mailpit's HTTP API (`GET /api/v1/search`, `GET /api/v1/message/{ID}`). */
export interface CaughtMailSummary {
  ID: string;
  Subject: string;
  To: Array<{ Address: string; Name: string }>;
  Created: string;
}

export interface CaughtMail extends CaughtMailSummary {
  Text: string;
  HTML: string;
  Attachments: Array<{ FileName: string; ContentType: string; PartID: string }>;
}

/** The token of the first link to `/<route>/<token>` in an e-mail's text (`reset-password`, `confirm-account`). */
export function linkToken(text: string, route: string): string {
  const token = new RegExp(`/${route}/([A-Za-z0-9_-]+)`).exec(text)?.[1];
  if (!token) throw new Error(`no ${route} link in the e-mail`);
  return token;
}

const PAGE = 250;
const toQuery = (part: string) => encodeURIComponent(`to:"${part}"`);

export class MailCatcher {
  constructor(private readonly apiUrl: string) {}

  /**
   * Messages sent to an address, or to any address containing `part` (`@domain`, a run's prefix),
   * all of them, page by page. Tests use unique addresses, so runs never see each other's mail.
   */
  async messagesTo(part: string): Promise<CaughtMailSummary[]> {
    const found: CaughtMailSummary[] = [];
    for (let start = 0; ; start += PAGE) {
      const response = await fetch(
        `${this.apiUrl}/api/v1/search?query=${toQuery(part)}&start=${start}&limit=${PAGE}`,
      );
      if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
      const page = (await response.json()) as { messages: CaughtMailSummary[]; messages_count?: number };
      found.push(...page.messages);
      if (page.messages.length < PAGE || found.length >= (page.messages_count ?? Infinity)) return found;
    }
  }

  /** Deletes the messages `messagesTo(part)` finds (frees the catcher's space for other test files). */
  async deleteMessagesTo(part: string): Promise<void> {
    await fetch(`${this.apiUrl}/api/v1/search?query=${toQuery(part)}`, { method: 'DELETE' });
  }

  async message(id: string): Promise<CaughtMail> {
    const response = await fetch(`${this.apiUrl}/api/v1/message/${id}`);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    return (await response.json()) as CaughtMail;
  }

  async attachment(messageId: string, partId: string): Promise<string> {
    const response = await fetch(`${this.apiUrl}/api/v1/message/${messageId}/part/${partId}`);
    return response.text();
  }

  /** An attachment's bytes as sent (a PDF, an image), not read as text. */
  async attachmentBytes(messageId: string, partId: string): Promise<Buffer> {
    const response = await fetch(`${this.apiUrl}/api/v1/message/${messageId}/part/${partId}`);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  /** Waits until `count` messages to the address arrived, then returns them in full. */
  async waitForMessagesTo(address: string, count = 1, timeoutMs = 25_000): Promise<CaughtMail[]> {
    let got = 0;
    const found = await eventually(
      async () => {
        const messages = await this.messagesTo(address);
        got = messages.length;
        return got >= count && messages;
      },
      timeoutMs,
      `${count} e-mail(s) to ${address}`,
      { intervalMs: 200 },
    ).catch((error: Error) => {
      throw new Error(`${error.message} (got ${got})`);
    });
    return Promise.all(found.map((m) => this.message(m.ID)));
  }
}
