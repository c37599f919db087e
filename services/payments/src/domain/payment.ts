import type { AppointmentPaymentStatus, PaymentMethod, PaymentView } from '@crm/contracts';

export type PaymentStatus = 'pending' | 'succeeded' | 'failed' | 'refunded';

export interface Refund {
  status: 'requested' | 'confirmed';
  amountCents: number;
  cause: 'cancellation' | 'manual' | 'holdExpired';
  reason: string;
  requestedAt: Date;
  attempts: number;
  nextAttemptAt: Date;
  confirmedAt?: Date;
  byId?: string;
}

/** One payment attempt (online) or one recorded payment (desk). Amounts in cents. */
export interface Payment {
  id: string;
  /** Guards against two clicks and two deliveries: unique (docs/product/payments.md#idempotency). */
  key: string;
  appointmentId: string;
  patientId: string;
  provider: 'redsys' | 'desk';
  method: PaymentMethod;
  amountCents: number;
  currency: string;
  status: PaymentStatus;
  /** The gateway's order number (online payments). */
  order?: string;
  createdAt: Date;
  paidAt?: Date;
  failedAt?: Date;
  responseCode?: string;
  recordedById?: string;
  refund?: Refund;
  invoiceNumber?: string;
  rectifyingInvoiceNumber?: string;
}

/** What the payments service knows of an appointment (from the appointments' events). */
export interface KnownAppointment {
  id: string;
  patientId: string;
  patientName: string;
  patientEmail: string;
  date: Date;
  status: 'booked' | 'checkedIn' | 'attended' | 'noShow' | 'cancelled' | 'deleted';
  /** Made by a reschedule of this appointment: its payments are this one's (a move carries them). */
  previousId?: string;
  /** Released unpaid by the appointments service (slot hold): a payment arriving after is given back. */
  releasedUnpaid?: boolean;
}

/** Money taken and not given back. */
export const keptCents = (payments: readonly Payment[]): number =>
  payments
    .filter((payment) => payment.status === 'succeeded')
    .reduce((sum, payment) => sum + payment.amountCents, 0);

/**
 * The appointment's state as the patient area and the desk show it: `paid` once the money taken
 * (not given back) covers the check-up, `refunded` when everything taken was given back, `pending`
 * while an online attempt is open, else `unpaid`.
 */
export function appointmentPaymentStatus(
  payments: readonly Payment[],
  priceCents: number,
): AppointmentPaymentStatus {
  const kept = keptCents(payments);
  if (kept > 0 && kept >= priceCents) return 'paid';
  if (payments.some((payment) => payment.status === 'refunded') && kept === 0) return 'refunded';
  if (payments.some((payment) => payment.status === 'pending')) return 'pending';
  return 'unpaid';
}

export function paymentView(payment: Payment): PaymentView {
  return {
    id: payment.id,
    provider: payment.provider,
    method: payment.method,
    amountCents: payment.amountCents,
    currency: payment.currency,
    status: payment.status,
    createdAt: payment.createdAt.toISOString(),
    ...(payment.paidAt ? { paidAt: payment.paidAt.toISOString() } : {}),
    ...(payment.refund
      ? {
          refund: {
            status: payment.refund.status,
            amountCents: payment.refund.amountCents,
            reason: payment.refund.reason,
            ...(payment.refund.confirmedAt ? { confirmedAt: payment.refund.confirmedAt.toISOString() } : {}),
          },
        }
      : {}),
  };
}

/** Euros as the centre profile states them → integer cents (19 → 1900, 24.58 → 2458). */
export const toCents = (euros: number): number => Math.round(euros * 100);

/** Waits before the next refund attempt: base, 2×, 4×… up to an hour. */
export function refundBackoffMs(attempts: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempts - 1), 3_600_000);
}
