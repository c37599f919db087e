import useSWR from 'swr';
import type { AgendaResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** How often the open agenda asks again (check-ins made at the kiosk show up without a reload). */
export const AGENDA_REFRESH_MS = 5_000;

export const agendaKey = (day: string) => ['backoffice:agenda', day] as const;

/** `GET /dates/agenda?date=YYYY-MM-DD` (DOCTOR, ADMIN): the day's appointments and walk-ins in time order. */
export const getAgenda = (day: string) => api.get<AgendaResponse>('/dates/agenda', { query: { date: day } });

/**
 * The agenda of one day at the centre, refreshed every {@link AGENDA_REFRESH_MS} while the page is
 * visible and whenever the window gets the focus back; the previous day's list stays on screen while
 * another day loads.
 */
export const useAgenda = (day: string) =>
  useSWR(agendaKey(day), () => getAgenda(day), {
    refreshInterval: AGENDA_REFRESH_MS,
    revalidateOnFocus: true,
    refreshWhenHidden: false,
    keepPreviousData: true,
  });
