import useSWR from 'swr';
import type {
  AppointmentPayments,
  DeskPaymentBody,
  PaymentSummaries,
  PaymentSummary,
  PaymentView,
  RecordView,
} from '@crm/contracts';
import { api } from '@crm/web-kit';
import { recordExtraItems, type DeskItem } from './desk-items';

export { amountText, priceCents, recordExtraItems, type DeskItem } from './desk-items';

export { PAYMENT_METHOD_LABELS } from '@crm/contracts/payment-methods';

export const paymentsKey = (appointmentId: string) => `/payments/appointment/${appointmentId}`;

/** GET /payments/appointment/:id — "Pagado" / "Pendiente" and the amount. */
export const useAppointmentPayments = (appointmentId: string) =>
  useSWR<AppointmentPayments>(paymentsKey(appointmentId), (path: string) =>
    api.get<AppointmentPayments>(path),
  );

/** Most ids `GET /payments/appointments` takes at once. */
const SUMMARY_BATCH = 100;
let queued: Array<{ id: string; resolve(s: PaymentSummary): void; reject(e: unknown): void }> = [];

/**
 * One appointment's payment state, asked together with every other row the page renders in the same
 * moment: `GET /payments/appointments?ids=` with up to 100 ids, instead of one call per row.
 */
function loadSummary(id: string): Promise<PaymentSummary> {
  return new Promise((resolve, reject) => {
    if (queued.length === 0) setTimeout(flushSummaries, 0);
    queued.push({ id, resolve, reject });
  });
}

function flushSummaries() {
  const waiting = queued;
  queued = [];
  for (let start = 0; start < waiting.length; start += SUMMARY_BATCH) {
    const batch = waiting.slice(start, start + SUMMARY_BATCH);
    const ids = [...new Set(batch.map((entry) => entry.id))];
    api
      .get<PaymentSummaries>(`/payments/appointments?ids=${ids.join(',')}`)
      .then(({ items }) => {
        const byId = new Map(items.map((item) => [item.appointmentId, item]));
        for (const entry of batch) {
          const found = byId.get(entry.id);
          if (found) entry.resolve(found);
          else entry.reject(new Error('Sin datos de pago'));
        }
      })
      .catch((error: unknown) => batch.forEach((entry) => entry.reject(error)));
  }
}

/** The lists' "Pagado" / "Pendiente": batched with the other rows (see `loadSummary`). */
export const usePaymentSummary = (appointmentId: string) =>
  useSWR<PaymentSummary>(`payment-summary:${appointmentId}`, () => loadSummary(appointmentId));

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

/**
 * `GET /records/appointment/:id`: the extra items of the appointment's clinical record, none while
 * it has no record. Asked when "Cobrar" is opened, not for every row (reading a record is recorded in
 * the access trail).
 */
export async function deskExtraItems(appointmentId: string): Promise<DeskItem[]> {
  const { record } = await api.get<{ record: RecordView | null }>(
    `/records/appointment/${encodeURIComponent(appointmentId)}`,
  );
  return recordExtraItems(record);
}
