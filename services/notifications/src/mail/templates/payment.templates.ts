import { PAYMENT_METHOD_WORDS, type PaymentMethod } from '@crm/contracts';
import { centrePhone, brandedEmail, type Email, type MailCentre } from './layout';

/** "19,00 €" (es-ES); a rectifying invoice's negative total is shown as the amount given back. */
export const formatAmount = (cents: number, currency: string): string =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency }).format(Math.abs(cents) / 100);

/** "tarjeta", "efectivo"…; an unknown method is shown as sent. */
export const paymentMethodName = (method: string | undefined): string | undefined =>
  method === undefined ? undefined : (PAYMENT_METHOD_WORDS[method as PaymentMethod] ?? method);

export interface PaymentMailFacts {
  /** The invoice's number (`F2026-000001`, or `R2026-000001` for a refund). */
  number: string;
  totalCents: number;
  currency: string;
  method?: string;
  /** The appointment's date and time as the e-mails write it, when known. */
  when?: string;
  /** The invoice a rectifying one corrects. */
  rectifies?: string;
}

const questions = (centre: MailCentre) =>
  `Si tiene cualquier duda sobre el cobro, llámenos al ${centrePhone(centre)} o escríbanos a ${centre.email}.`;

/** A payment taken (online or at the desk), with the invoice attached. */
export function paymentReceivedEmail(centre: MailCentre, name: string, facts: PaymentMailFacts): Email {
  const amount = formatAmount(facts.totalCents, facts.currency);
  const method = paymentMethodName(facts.method);
  return brandedEmail(centre, {
    subject: `Pago recibido: factura ${facts.number}`,
    greetingName: name,
    paragraphs: [
      `Hemos recibido su pago de ${amount}${method ? ` (${method})` : ''}${
        facts.when ? ` por su cita del ${facts.when} (hora de Canarias)` : ''
      }.`,
      `Le adjuntamos la factura ${facts.number} en PDF.`,
    ],
    footnote: questions(centre),
  });
}

/** Money given back, with the rectifying invoice attached. */
export function refundIssuedEmail(centre: MailCentre, name: string, facts: PaymentMailFacts): Email {
  const amount = formatAmount(facts.totalCents, facts.currency);
  const method = paymentMethodName(facts.method);
  return brandedEmail(centre, {
    subject: `Devolución realizada: factura ${facts.number}`,
    greetingName: name,
    paragraphs: [
      `Le hemos devuelto ${amount}${method ? ` (${method})` : ''}${
        facts.when ? ` del pago de su cita del ${facts.when} (hora de Canarias)` : ''
      }.`,
      facts.method === 'card' || facts.method === 'bizum'
        ? 'El importe aparecerá en su cuenta en unos días, según su banco.'
        : 'Si el pago se hizo en el centro, la devolución se hace por el mismo medio.',
      `Le adjuntamos la factura rectificativa ${facts.number}${
        facts.rectifies ? `, que corrige la factura ${facts.rectifies}` : ''
      }, en PDF.`,
    ],
    footnote: questions(centre),
  });
}
