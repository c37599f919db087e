/**
 * Titles and texts of the dialogs (docs/product/README.md#dialogs-and-errors), in one place so every
 * app says the same thing. Spellings are the first version's, on purpose ("intentelo"), except the kiosk's,
 * which speak as "usted" like every other kiosk text.
 */
export const MESSAGES = {
  serverError: {
    title: 'Internal server error',
    text: 'Estamos teniendo problemas con el servidor, intentelo más tarde o contacta con nosotros',
  },
  bookingInfo: { title: 'Información de la reserva' },
  bookingSuccess: { title: 'Reserva exitosa', text: 'Su cita ha sido reservada correctamente.' },
  cancelSuccess: { title: 'Cancelación exitosa', text: 'Su cita ha sido cancelada correctamente.' },
  appointmentDeleted: { title: 'Cita eliminada', text: 'La cita ha sido eliminada correctamente.' },
  deleteFailed: { title: 'Error', text: 'No se pudo eliminar la cita' },
  recordSaved: { title: 'Datos Guardados', text: 'La historia clínica se ha guardado correctamente.' },
  recordUpdated: {
    title: 'Datos Actualizados',
    text: 'La historia clínica se ha actualizado correctamente.',
  },
  recordTextLimit: { title: 'Error', text: 'Los textos deben tener entre 0 y 100 caracteres' },
  signInSuccess: { title: 'Inicio de sesión exitoso', text: 'Bienvenido' },
  signUpSuccess: {
    title: 'Registro exitoso',
    text: 'Le hemos enviado un correo electrónico para confirmar su cuenta. Revise su bandeja de entrada.',
  },
  forgotPasswordSent: {
    title: 'Se ha enviado un correo',
    text: 'Revise su bandeja de entrada y siga el enlace para restablecer su contraseña.',
  },
  passwordChanged: {
    title: 'Contraseña cambiada',
    text: 'Su contraseña se ha cambiado correctamente. Ya puede iniciar sesión.',
  },
  accountConfirmed: { title: 'Cuenta confirmada', text: 'Su cuenta ha sido confirmada correctamente.' },
  signedOut: { title: 'Sesión cerrada exitosamente', text: 'Hasta pronto.' },
  patientRegistered: { title: 'Paciente Registrado', text: 'El paciente ha sido registrado correctamente.' },
  patientNotFound: { title: 'Error', text: 'Paciente no encontrado', button: 'Aceptar' },
  roomNoSlots: {
    title: 'Error al reservar la consulta',
    text: 'Debes seleccionar al menos un horario para reservar la consulta',
  },
  roomFailed: {
    title: 'Error al reservar la consulta',
    text: 'Ha ocurrido un error al reservar la consulta, intentelo más tarde o contacta con nosotros',
  },
  kiosk: {
    lookupFailed: 'Error al buscar paciente.',
    missingPatientId: 'No se encontró la ID del paciente para agendar la cita.',
    bookingFailed: 'No se pudo registrar la cita.',
    saveFailed: 'No se pudieron guardar sus datos.',
  },
} as const;
