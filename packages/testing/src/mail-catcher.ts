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

export class MailCatcher {
  constructor(private readonly apiUrl: string) {}

  /** Messages sent to one address (tests use unique addresses, so runs never see each other's mail). */
  async messagesTo(address: string): Promise<CaughtMailSummary[]> {
    const url = `${this.apiUrl}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}&limit=200`;
    const response = await fetch(url);
    if (!response.ok) throw new Error(`mail catcher answered ${response.status}`);
    const body = (await response.json()) as { messages: CaughtMailSummary[] };
    return body.messages;
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

  /** Waits until `count` messages to the address arrived, then returns them in full. */
  async waitForMessagesTo(address: string, count = 1, timeoutMs = 15000): Promise<CaughtMail[]> {
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
