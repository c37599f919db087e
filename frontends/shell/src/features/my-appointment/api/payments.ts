import useSWR from 'swr';
import type { AppointmentPayments, CheckoutForm } from '@crm/contracts';
import { api, ApiError } from '@crm/web-kit';

export const paymentsPath = (appointmentId: string) => `/payments/appointment/${appointmentId}`;

/** GET /payments/appointment/:id — the appointment's payment state, payments and invoices. */
export const useAppointmentPayments = (appointmentId: string | undefined) =>
  useSWR<AppointmentPayments>(appointmentId ? paymentsPath(appointmentId) : null, (path: string) =>
    api.get<AppointmentPayments>(path),
  );

/**
 * POST /payments/checkout. Right after booking the payments service may not know the appointment
 * yet (it learns it from an event): a 404 is asked again a few times.
 */
export async function checkout(appointmentId: string): Promise<CheckoutForm> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api.post<CheckoutForm>('/payments/checkout', { appointmentId });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 404 || attempt >= 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Sends the browser to the gateway's payment page with the signed form (a full page navigation). */
export function goToPaymentPage(form: CheckoutForm): void {
  const element = document.createElement('form');
  element.method = 'POST';
  element.action = form.url;
  for (const name of ['Ds_SignatureVersion', 'Ds_MerchantParameters', 'Ds_Signature'] as const) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = form[name];
    element.appendChild(input);
  }
  document.body.appendChild(element);
  element.submit();
}

export const euros = (cents: number, currency = 'EUR') =>
  new Intl.NumberFormat('es-ES', { style: 'currency', currency }).format(cents / 100);
