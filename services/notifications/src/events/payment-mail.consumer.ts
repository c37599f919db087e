import { invoiceIssued } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { Logger } from '@crm/server-kit';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { Mailer } from '../mail/mailer';
import { formatAppointmentDate } from '../mail/templates/appointment.templates';
import { paymentReceivedEmail, refundIssuedEmail } from '../mail/templates/payment.templates';

/**
 * The e-mail of every invoice the payments service issues: "Pago recibido" with the invoice for a
 * payment (online or at the desk), "Devolución realizada" with the rectifying invoice for a refund.
 * The event carries the patient's name and address (the payments service's copy of the appointment's)
 * and the PDF itself (docs/product/payments.md#invoices). An event without them (issued before the
 * e-mail existed, or for an appointment the payments service never heard of) sends nothing; the log
 * names the invoice, never the patient. Single by the queue's event-id claims, like every e-mail.
 */
export function paymentMailHandlers(mailer: Mailer, profile: CentreProfileReader, logger?: Logger) {
  return [
    on(invoiceIssued, async (event) => {
      const { user, pdfBase64, number, kind } = event.data;
      if (!user?.email || !pdfBase64) {
        logger?.warn({ eventId: event.id, invoice: number }, 'invoice e-mail not sent: no recipient or PDF');
        return;
      }
      const pdf = Buffer.from(pdfBase64, 'base64');
      // A PDF that is not one would be attached as garbage: refused, so the message is dead-lettered.
      if (pdf.subarray(0, 5).toString('latin1') !== '%PDF-')
        throw new Error(`invoice ${number}: the attached document is not a PDF`);
      const centre = await profile.current();
      const facts = {
        number,
        totalCents: event.data.totalCents,
        currency: event.data.currency,
        method: event.data.method,
        ...(event.data.appointmentDate
          ? { when: formatAppointmentDate(new Date(event.data.appointmentDate)) }
          : {}),
        ...(event.data.rectifies ? { rectifies: event.data.rectifies } : {}),
      };
      await mailer.send({
        to: user.email,
        senderName: centre.senderName,
        ...(kind === 'invoice'
          ? paymentReceivedEmail(centre, user.name, facts)
          : refundIssuedEmail(centre, user.name, facts)),
        attachments: [
          {
            filename: `${kind === 'invoice' ? 'factura' : 'factura-rectificativa'}-${number}.pdf`,
            content: pdf,
            contentType: 'application/pdf',
          },
        ],
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
