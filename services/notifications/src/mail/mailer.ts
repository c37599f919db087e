import nodemailer from 'nodemailer';
import { isErasedAddress } from '@crm/contracts';
import { SpanKind, withSpan } from '@crm/server-kit';
import { senderAddress } from '../config';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { Email } from './templates/layout';

export interface Attachment {
  filename: string;
  content: string | Buffer;
  contentType: string;
  /** Shown inside the message (an image the HTML names by `cid:`), not as a file to open. */
  cid?: string;
}

export interface OutgoingMail extends Email {
  to: string;
  /** The sender's display name (the centre profile's `senderName`); the address is `MAIL_FROM`'s. */
  senderName: string;
  /** Where replies go: the centre profile's contact e-mail (the sender address is only `MAIL_FROM`). */
  replyTo?: string;
  attachments?: Attachment[];
  /** Stable per event, so a redelivered event that is sent twice is at least recognisable. */
  messageId?: string;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** SMTP through nodemailer; failures throw so the event is retried and finally dead-lettered. */
export function smtpMailer(smtpUrl: string, mailFrom: string): Mailer {
  const address = senderAddress(mailFrom);
  const transport = nodemailer.createTransport(smtpUrl, {
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10000,
  });
  const smtpAttributes = smtpServerAttributes(smtpUrl);
  return {
    async send({ to, senderName, replyTo, subject, html, text, attachments, messageId }) {
      // An erased account's address receives nothing (a late event about an erased patient).
      if (isErasedAddress(to)) return;
      // A span of the trace of the event being handled; no address or subject on it (personal data).
      await withSpan('smtp send', { kind: SpanKind.CLIENT, attributes: smtpAttributes }, () =>
        transport.sendMail({
          from: { name: senderName, address },
          to,
          ...(replyTo ? { replyTo } : {}),
          subject,
          html,
          text,
          attachments,
          messageId,
        }),
      );
    },
    close: () => transport.close(),
  };
}

/** Where mail goes (host and port only: the URL may hold credentials). */
function smtpServerAttributes(smtpUrl: string): Record<string, string | number> {
  try {
    const url = new URL(smtpUrl);
    return {
      'server.address': url.hostname,
      'server.port': Number(url.port || 25),
      'network.protocol.name': 'smtp',
    };
  } catch {
    return { 'network.protocol.name': 'smtp' };
  }
}

/**
 * Every e-mail answers to the centre: a reply goes to the centre profile's contact e-mail (read when
 * the e-mail is sent, so an admin's change applies at once), whatever address `MAIL_FROM` sends from.
 */
export function replyingToCentre(mailer: Mailer, profile: CentreProfileReader): Mailer {
  return {
    async send(mail) {
      const replyTo = mail.replyTo ?? (await profile.current()).email;
      await mailer.send({ ...mail, replyTo });
    },
    close: () => mailer.close(),
  };
}
