import { conflict, HttpError, notFound } from '@crm/server-kit';

/**
 * Errors of the booking calls, in the spec's booking error shape `{message, errors: [{message, field}]}`:
 * the front end shows the first entry's message in its "Información de la reserva" dialog.
 */
const withField = (status: number, message: string, field: string) =>
  new HttpError(status, message, [{ message, field }]);

export const dateRefused = (message: string) => withField(400, message, 'date');

export const slotTaken = () => withField(409, 'Ese horario ya no está disponible', 'date');

export const selfAlreadyBooked = () => withField(409, 'Ya tienes una cita reservada', 'date');

export const patientAlreadyBooked = () =>
  withField(409, 'El paciente ya tiene una cita reservada', 'pacientId');

export const patientNotFound = (field = 'pacientId') => withField(404, 'Paciente no encontrado', field);

export const appointmentNotFound = () => notFound('Cita no encontrada');

export const noAppointmentOnDate = () =>
  withField(404, 'No tienes ninguna cita reservada en esa fecha', 'date');

export const appointmentStarted = () => withField(409, 'La cita ya ha empezado o ha pasado', 'date');

export const notBooked = (action: 'cancel' | 'delete') =>
  conflict(
    action === 'cancel'
      ? 'Solo se pueden cancelar citas reservadas'
      : 'Solo se pueden eliminar citas reservadas',
  );
