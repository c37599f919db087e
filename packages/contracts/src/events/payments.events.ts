import { z } from 'zod';
import { DESK_PAYMENT_METHODS } from '../api/payments';
import { defineEvent } from './envelope';

const cents = z.number().int().min(0);
const instant = z.iso.datetime({ offset: true });

/** What every payment event carries: no card data ever (the gateway keeps it). */
const paymentFacts = z.object({
  paymentId: z.string(),
  appointmentId: z.string(),
  pacientId: z.string(),
  provider: z.enum(['redsys', 'desk']),
  method: z.enum(DESK_PAYMENT_METHODS),
  amountCents: cents,
  currency: z.string(),
});

/** Money taken: online (the gateway's notification said so) or recorded at the desk. */
export const paymentSucceeded = defineEvent(
  'payments.payment.succeeded.v1',
  paymentFacts.extend({ paidAt: instant }),
  {
    publishers: ['payments'],
    consumers: ['appointments', 'reporting'],
  },
);

/** An online payment the gateway refused (card denied, Bizum refused). */
export const paymentFailed = defineEvent(
  'payments.payment.failed.v1',
  paymentFacts.extend({ failedAt: instant, responseCode: z.string() }),
  {
    publishers: ['payments'],
    consumers: [],
  },
);

/** Money given back, confirmed by the gateway (or recorded for a desk payment). */
export const refundIssued = defineEvent(
  'payments.refund.issued.v1',
  paymentFacts.extend({
    refundedAt: instant,
    refundCents: cents,
    /**
     * `cancellation`: the patient cancelled inside the policy; `manual`: an ADMIN, with a reason;
     * `holdExpired`: the payment arrived after its unpaid slot had been released.
     */
    cause: z.enum(['cancellation', 'manual', 'holdExpired']),
  }),
  {
    publishers: ['payments'],
    consumers: ['reporting'],
  },
);

/** A simplified invoice (or a rectifying one, for a refund) was issued; immutable from then on. */
export const invoiceIssued = defineEvent(
  'payments.invoice.issued.v1',
  z.object({
    number: z.string(),
    kind: z.enum(['invoice', 'rectifying']),
    paymentId: z.string(),
    appointmentId: z.string(),
    pacientId: z.string(),
    totalCents: z.number().int(),
    currency: z.string(),
    issuedAt: instant,
  }),
  {
    publishers: ['payments'],
    consumers: [],
  },
);
