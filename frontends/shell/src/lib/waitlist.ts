import useSWR from 'swr';
import type { AppointmentView, WaitlistEntryView, WaitlistOfferView, WaitlistView } from '@crm/contracts';
import { api } from '@crm/web-kit';

export const WAITLIST_PATH = '/dates/waitlist';

/** GET /dates/waitlist — the patient's days on the waiting list, from today on (only when `enabled`). */
export const useWaitlist = (enabled = true) =>
  useSWR<WaitlistView>(enabled ? WAITLIST_PATH : null, () => api.get<WaitlistView>(WAITLIST_PATH));

/** POST /dates/waitlist — joins a day's waiting list (joining twice keeps the first place). */
export const joinWaitlist = (day: string) => api.post<WaitlistEntryView>(WAITLIST_PATH, { day });

/** DELETE /dates/waitlist/:day */
export const leaveWaitlist = (day: string) => api.delete<{ message: string }>(`${WAITLIST_PATH}/${day}`);

/** GET /dates/offer/:token — the slot an e-mailed offer holds for the patient. */
export const useOffer = (token: string | undefined, enabled: boolean) =>
  useSWR<WaitlistOfferView>(token && enabled ? `/dates/offer/${token}` : null, (path: string) =>
    api.get<WaitlistOfferView>(path),
  );

/** POST /dates/offer/:token — books the held slot (or moves the patient's appointment there). */
export const claimOffer = (token: string) => api.post<AppointmentView>(`/dates/offer/${token}`, {});
