import { useCallback } from 'react';
import type { KeyedMutator } from 'swr';
import type { AppointmentView } from '@crm/contracts';
import { ApiError, confirmDialog, MESSAGES, showError, showSuccess } from '@crm/web-kit';
import { formatDateTime } from '@crm/web-kit/time';
import { deleteAppointment } from '../api/appointments';

/**
 * ADMIN deletes an appointment (docs/product/back-office.md#deleting-and-cancelling): confirmation, DELETE
 * /dates/delete/{id}, the row is dropped locally (no reload of the list) and "Cita eliminada"; on failure
 * "Error" with the server's message, or "No se pudo eliminar la cita".
 */
export function useDeleteAppointment(mutate: KeyedMutator<AppointmentView[]>) {
  return useCallback(
    async (appointment: AppointmentView) => {
      const confirmed = await confirmDialog({
        title: '¿Eliminar la cita?',
        text: `${appointment.user?.name ?? appointment.name} — ${formatDateTime(appointment.date)}`,
        icon: 'warning',
      });
      if (!confirmed) return;
      try {
        await deleteAppointment(appointment.id);
      } catch (error) {
        const message =
          error instanceof ApiError && error.status !== 0 && error.message
            ? error.message
            : MESSAGES.deleteFailed.text;
        await showError(MESSAGES.deleteFailed.title, message);
        return;
      }
      await mutate((list) => (list ?? []).filter((a) => a.id !== appointment.id), { revalidate: false });
      await showSuccess(MESSAGES.appointmentDeleted.title, MESSAGES.appointmentDeleted.text);
    },
    [mutate],
  );
}
