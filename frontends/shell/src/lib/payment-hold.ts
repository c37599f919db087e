import { formatTime } from '@crm/web-kit/time';

/**
 * The slot hold of an unpaid booking (docs/product/payments.md#slot-hold): with online payment
 * required, the patient's booking is kept until `paymentDueBy`, then freed unless paid.
 */
export function paymentHoldNotice(paymentDueBy: string, now = Date.now()): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(paymentDueBy) - now) / 60_000));
  return (
    ` Le guardamos el horario durante ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}, hasta las ` +
    `${formatTime(paymentDueBy)}: páguelo antes con tarjeta o Bizum o la cita se anulará y el horario quedará libre.`
  );
}
