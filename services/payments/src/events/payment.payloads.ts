import type { Payment } from '../domain/payment';

/**
 * What every payment event carries, in the contract's field names: other services read the patient
 * as `pacientId`, the name the public API uses, while the domain says `patientId`.
 */
export const paymentFacts = (payment: Payment, method: Payment['method']) => ({
  paymentId: payment.id,
  appointmentId: payment.appointmentId,
  pacientId: payment.patientId,
  provider: payment.provider,
  method,
  amountCents: payment.amountCents,
  currency: payment.currency,
});
