import useSWR from 'swr';
import type { AppointmentPayments, DeskPaymentBody, PaymentMethod, PaymentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** How the back office names a payment method. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Tarjeta',
  cash: 'Efectivo',
  bizum: 'Bizum',
  transfer: 'Transferencia',
};

export const paymentsKey = (appointmentId: string) => `/payments/appointment/${appointmentId}`;

/** GET /payments/appointment/:id — "Pagado" / "Pendiente" and the amount. */
export const useAppointmentPayments = (appointmentId: string) =>
  useSWR<AppointmentPayments>(paymentsKey(appointmentId), (path: string) =>
    api.get<AppointmentPayments>(path),
  );

/** POST /payments/desk — a payment taken at the centre (DOCTOR, ADMIN). */
export const recordDeskPayment = (body: DeskPaymentBody) => api.post<PaymentView>('/payments/desk', body);

export const euros = (cents: number, currency = 'EUR') =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency }).format(cents / 100);

/** "19,50" or "19.5" → 1950; undefined when it is not an amount. */
export function centsOf(text: string): number | undefined {
  const normalized = text.trim().replace(/\s|€/g, '').replace(',', '.');
  if (!/^\d{1,5}(\.\d{1,2})?$/.test(normalized)) return undefined;
  return Math.round(Number(normalized) * 100);
}
