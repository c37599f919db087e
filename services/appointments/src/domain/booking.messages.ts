import { PATIENT_ID_FIELD, type HeldAppointment, type PatientAlreadyBookedBody } from '@crm/contracts';
import { conflict, HttpError, notFound } from '@crm/server-kit';
import type { Initiator, Refusal, Target } from './lifecycle.rules';

/**
 * Errors of the booking calls, in the booking error shape the front ends read `{message, errors: [{message,
 * field}]}`: the front end shows the first entry's message in its "Información de la reserva" dialog.
 */
const withField = (status: number, message: string, field: string) =>
  new HttpError(status, message, [{ message, field }]);

export const dateRefused = (message: string) => withField(400, message, 'date');

export const slotTaken = () => withField(409, 'Ese horario ya no está disponible', 'date');

/** A 409 "already has an active appointment" that also says which one (the kiosk decides with it). */
class AlreadyBookedError extends HttpError {
  constructor(
    message: string,
    field: string,
    private readonly held: HeldAppointment | undefined,
  ) {
    super(409, message, [{ message, field }]);
  }

  /** The other appointment this answer discloses, if any. */
  get disclosed(): HeldAppointment | undefined {
    return this.held;
  }

  override toBody(): PatientAlreadyBookedBody {
    return {
      message: this.message,
      errors: this.errors as PatientAlreadyBookedBody['errors'],
      ...(this.held ? { appointment: this.held } : {}),
    };
  }
}

/** The patient's other appointment a refused booking names in its answer (see `AlreadyBookedError`). */
export const disclosedAppointment = (error: unknown): HeldAppointment | undefined =>
  error instanceof AlreadyBookedError ? error.disclosed : undefined;

export const selfAlreadyBooked = (held?: HeldAppointment) =>
  new AlreadyBookedError('Ya tienes una cita reservada', 'date', held);

export const patientAlreadyBooked = (held?: HeldAppointment) =>
  new AlreadyBookedError('El paciente ya tiene una cita reservada', PATIENT_ID_FIELD, held);

/** `POST /dates/service/now` when the patient's appointment is now: check in instead. */
export const appointmentIsNow = (held: HeldAppointment) =>
  new AlreadyBookedError(
    held.status === 'checkedIn'
      ? 'La llegada del paciente ya está registrada'
      : 'El paciente tiene su cita ahora: registre su llegada',
    PATIENT_ID_FIELD,
    held,
  );

export const patientNotFound = (field = PATIENT_ID_FIELD) => withField(404, 'Paciente no encontrado', field);

export const appointmentNotFound = () => notFound('Cita no encontrada');

export const noAppointmentOnDate = () =>
  withField(404, 'No tiene ninguna cita reservada en esa fecha', 'date');

export const appointmentStarted = () => withField(409, 'La cita ya ha empezado o ha pasado', 'date');

/** Reschedule (README, "Reschedule"). */
export const notMovable = () =>
  withField(409, 'Solo se puede cambiar una cita reservada que aún no ha empezado', 'date');
/** A patient moving an appointment they have checked in for: they are at the centre already. */
export const checkedInNotMovable = () =>
  withField(409, 'Ya ha registrado su llegada: para cambiar la cita, hable con recepción', 'date');
export const sameSlot = () => withField(409, 'La cita ya es a esa hora', 'date');
export const moveUnderWay = () => conflict('La cita ya se está cambiando; inténtelo de nuevo');
export const nothingToMove = () => withField(404, 'No tiene ninguna cita reservada que cambiar', 'date');

const OUTSIDE_WINDOW =
  'La llegada se registra desde 2 horas antes hasta 30 minutos después de la hora de la cita';

/** `POST /dates/checkin`: no active appointment at all, or none whose window is open. */
export const noAppointmentToCheckIn = (hasOne: boolean) =>
  withField(
    404,
    hasOne
      ? `El paciente no tiene ninguna cita que registrar ahora. ${OUTSIDE_WINDOW}`
      : 'El paciente no tiene ninguna cita para hoy',
    PATIENT_ID_FIELD,
  );

const ENDED: Record<Target, string> = {
  checkedIn: 'Solo se puede registrar la llegada de una cita reservada',
  attended: 'Solo se pueden marcar como atendidas las citas reservadas o con la llegada registrada',
  noShow: 'Solo se pueden marcar como no presentadas las citas reservadas',
  cancelled: 'Solo se pueden cancelar citas reservadas',
  deleted: 'Solo se pueden eliminar citas reservadas',
};

/** The answer to a refused transition (see lifecycle.rules.ts). */
export function refusalError(refusal: Refusal, to: Target, initiator: Initiator): HttpError {
  switch (refusal) {
    case 'ended':
      return initiator === 'patient' ? noAppointmentOnDate() : conflict(ENDED[to]);
    case 'alreadyCheckedIn':
      return conflict('La llegada del paciente ya está registrada');
    case 'outsideCheckInWindow':
      return withField(404, `No hay ninguna cita que registrar ahora. ${OUTSIDE_WINDOW}`, 'date');
    case 'checkedIn':
      return conflict(
        initiator === 'patient'
          ? 'Ya ha registrado su llegada: para cancelar la cita, hable con recepción'
          : 'El paciente ha registrado su llegada: no se puede marcar como no presentado',
      );
    case 'tooEarly':
      return conflict(
        to === 'noShow'
          ? 'La cita aún no ha empezado'
          : 'Solo se puede marcar como atendida desde 2 horas antes de la cita',
      );
    case 'started':
      return appointmentStarted();
  }
}

export const waitlistDayPast = () => withField(400, 'Ese día ya ha pasado', 'day');
export const waitlistDayClosed = () => withField(400, 'El centro no abre ese día', 'day');
export const notOnWaitlist = () => withField(404, 'No está en la lista de espera de ese día', 'day');
export const offerGone = () => notFound('La oferta ya no está disponible: ha caducado o ya se ha usado');
