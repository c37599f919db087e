/** Messages of the records calls (Spanish: shown to back-office users). */
export const RECORD_MESSAGES = {
  appointmentNotFound: 'La cita no existe',
  appointmentOfAnotherPatient: 'La cita no pertenece a este paciente',
  appointmentEnded: 'La cita está cancelada o eliminada: no admite historia clínica',
  appointmentNoShow:
    'La cita está marcada como «No presentado»: el paciente no acudió y no admite historia clínica',
  alreadyRecorded: 'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra',
  recordNotFound: 'Registro no encontrado',
  busy: 'El registro se está modificando a la vez desde otro sitio; inténtelo de nuevo',
} as const;
