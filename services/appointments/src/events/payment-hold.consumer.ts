import { paymentSucceeded } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { PaymentHoldRelease } from '../domain/payment-hold';

/**
 * The payments service's `payments.payment.succeeded.v1` (online or at the desk): the appointment's
 * slot hold is paid and is not released. A redelivered event finds the outcome recorded already.
 */
export function paymentHoldHandlers(holds: PaymentHoldRelease) {
  return [
    on(paymentSucceeded, (event) => holds.paid(event.data.appointmentId).then(() => undefined)),
  ] as const;
}
