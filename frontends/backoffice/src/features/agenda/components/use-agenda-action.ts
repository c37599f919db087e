import { useCallback, useState } from 'react';
import type { AgendaEntry, AppointmentView } from '@crm/contracts';
import { ApiError, confirmDialog, showError, showServerError } from '@crm/web-kit';
import { formatTime } from '@crm/web-kit/time';
import { checkInAppointment } from '../api/check-in-appointment';
import { markAttended } from '../api/mark-attended';
import { markNoShow } from '../api/mark-no-show';

export type AgendaAction = 'checkIn' | 'attended' | 'noShow';

const CALLS: Record<AgendaAction, (id: string) => Promise<AppointmentView>> = {
  checkIn: checkInAppointment,
  attended: markAttended,
  noShow: markNoShow,
};

/** Ending an appointment cannot be undone: those two ask first. */
const QUESTIONS: Partial<Record<AgendaAction, string>> = {
  attended: '¿Marcar la cita como atendida?',
  noShow: '¿Marcar al paciente como no presentado?',
};

/**
 * A refusal of the server (4xx) shows its message in an "Error" dialog (the style of every admin
 * actions); only a server or network failure shows "Internal server error".
 */
async function showActionError(error: unknown): Promise<void> {
  if (error instanceof ApiError && !error.isServerFailure) {
    await showError('Error', error.errors[0]?.message ?? error.message);
    return;
  }
  await showServerError();
}

/**
 * Runs one agenda button: asks first for the irreversible ones, calls the server, puts the answer
 * in the list at once (then `refresh` reads the day again). `pending` is the id being changed.
 */
export function useAgendaAction(
  apply: (changed: AppointmentView) => Promise<unknown>,
  refresh: () => Promise<unknown>,
) {
  const [pending, setPending] = useState<string | null>(null);
  const run = useCallback(
    async (entry: AgendaEntry, action: AgendaAction) => {
      const question = QUESTIONS[action];
      if (question) {
        const confirmed = await confirmDialog({
          title: question,
          text: `${entry.user?.name ?? entry.name} — ${formatTime(entry.date)}`,
          icon: 'question',
        });
        if (!confirmed) return;
      }
      setPending(entry.id);
      try {
        await apply(await CALLS[action](entry.id));
      } catch (error) {
        // Whatever happened, show the day as the server has it now.
        void refresh();
        await showActionError(error);
        return;
      } finally {
        setPending(null);
      }
      void refresh();
    },
    [apply, refresh],
  );
  return { run, pending };
}
