/**
 * Counts the e-mails of one run in Mailpit by a unique recipient prefix. It polls while the run
 * goes on and remembers every message id it saw, so messages pruned later by Mailpit's `--max`
 * (other test files send mail too) are still counted. `afterAll` deletes the run's messages.
 */
import { eventually, MailCatcher } from '@crm/testing';

export class MailTally {
  private readonly seen = new Map<string, { to: string; subject: string }>();
  private timer: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;

  private readonly catcher: MailCatcher;

  constructor(
    apiUrl: string,
    readonly prefix: string,
  ) {
    this.catcher = new MailCatcher(apiUrl);
  }

  /** Reads every message matching the prefix now. */
  async poll(): Promise<number> {
    for (const message of await this.catcher.messagesTo(this.prefix))
      this.seen.set(message.ID, { to: message.To[0]?.Address ?? '', subject: message.Subject });
    return this.seen.size;
  }

  /** Keeps polling every second in the background until `stop()`. */
  start(): this {
    const tick = () => {
      this.polling = this.poll().then(
        () => undefined,
        () => undefined,
      );
      void this.polling.then(() => {
        if (this.timer) this.timer = setTimeout(tick, 1000);
      });
    };
    this.timer = setTimeout(tick, 1000);
    return this;
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.polling;
  }

  /**
   * Polls until every expected `recipient | kind` key has arrived at least once, or the time is up.
   * Keys, not a count: a duplicate must not stand in for an e-mail that is still on its way.
   */
  async waitFor(expected: readonly string[], timeoutMs: number): Promise<void> {
    await eventually(
      async () => {
        await this.poll();
        const counts = this.counts();
        return expected.every((key) => counts.has(key));
      },
      timeoutMs,
      'every expected e-mail',
      { intervalMs: 500 },
    ).catch(() => undefined); // what never came is counted by compare()
  }

  /** How many messages each `recipient | kind` pair received (kind: the subject before any ':'). */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { to, subject } of this.seen.values()) {
      const key = mailKey(to, subject);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * Compares with the e-mails expected (one per `recipient | subject` key): how many never came,
   * and how many extra copies came.
   */
  compare(expected: readonly string[]): { lost: number; duplicates: number; unexpected: number } {
    const counts = this.counts();
    let lost = 0;
    let duplicates = 0;
    const wanted = new Set(expected);
    for (const key of wanted) {
      const n = counts.get(key) ?? 0;
      if (n === 0) lost += 1;
      else duplicates += n - 1;
    }
    let unexpected = 0;
    for (const [key, n] of counts) if (!wanted.has(key)) unexpected += n;
    return { lost, duplicates, unexpected };
  }

  /** Frees Mailpit's space for other test files. */
  async deleteAll(): Promise<void> {
    await this.catcher.deleteMessagesTo(this.prefix).catch(() => undefined);
  }
}

/** `ana@x.test | Cita confirmada` for "Cita confirmada: lunes 7 de enero, 10:00". */
export const mailKey = (to: string, subject: string) => `${to.toLowerCase()} | ${subject.split(':')[0]}`;
