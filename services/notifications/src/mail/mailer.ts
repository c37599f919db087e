import nodemailer from 'nodemailer';
import { isErasedAddress } from '@crm/contracts';
import { senderAddress } from '../config';
import type { Email } from './templates/layout';

export interface Attachment {
  filename: string;
  content: string;
  contentType: string;
}

export interface OutgoingMail extends Email {
  to: string;
  /** The sender's display name (the centre profile's `senderName`); the address is `MAIL_FROM`'s. */
  senderName: string;
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
  return {
    async send({ to, senderName, subject, html, text, attachments, messageId }) {
      // An erased account's address receives nothing (a late event about an erased patient).
      if (isErasedAddress(to)) return;
      await transport.sendMail({
        from: { name: senderName, address },
        to,
        subject,
        html,
        text,
        attachments,
        messageId,
      });
    },
    close: () => transport.close(),
  };
}
