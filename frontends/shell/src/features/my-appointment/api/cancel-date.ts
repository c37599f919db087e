import type { AppointmentStatusChange } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** DELETE /dates/:date — the patient cancels their own appointment, named by its date value. */
export const cancelDate = (date: string) =>
  api.delete<AppointmentStatusChange & { refundable?: boolean }>(`/dates/${encodeURIComponent(date)}`);
