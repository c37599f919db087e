/** Spanish names of the trail's vocabulary (services/audit/README.md "Vocabulary"). */

export const ROLE_LABELS: Record<string, string> = {
  ADMIN: 'Administrador',
  DOCTOR: 'Médico',
  SERVICE_ACCOUNT: 'Quiosco',
  PACIENT: 'Paciente',
  ANONYMOUS: 'Desconocido',
};

/** The actions an ADMIN can filter by, in the order of the select. */
export const ACTION_LABELS: Record<string, string> = {
  'record.read': 'Consulta de historia clínica',
  'record.list': 'Listado de historias clínicas',
  'record.update': 'Modificación de historia clínica',
  'appointment.read': 'Consulta de cita',
  'appointment.list': 'Listado de citas',
  'appointment.book': 'Reserva de cita',
  'appointment.cancel': 'Cancelación de cita',
  'user.read': 'Consulta de datos del paciente',
  'user.list': 'Listado de pacientes',
  'user.create': 'Alta de paciente',
  'user.update': 'Modificación de datos del paciente',
  'staff.create': 'Alta de personal',
  'staff.disable': 'Desactivación de personal',
  'staff.enable': 'Reactivación de personal',
  'account.erase': 'Eliminación de cuenta',
  'appointment.reschedule': 'Cambio de cita',
  'config.view.update': 'Cambio de formulario',
  'config.centre.update': 'Cambio de datos del centro',
  'config.centre.closures': 'Cambio de cierres y festivos del centro',
  'auth.signin': 'Inicio de sesión',
  'auth.signout': 'Cierre de sesión',
  'auth.2fa.verify': 'Verificación en dos pasos',
  'auth.2fa.enrol': 'Activación de la verificación en dos pasos',
  'auth.password.reset': 'Cambio de contraseña',
  'data.export': 'Exportación de datos',
  'audit.export': 'Exportación del registro de accesos',
  'audit.read': 'Consulta del registro de accesos',
  'invoice.export': 'Exportación de facturas',
  'auth.signing-key.rotate': 'Renovación de la clave de firma de sesiones',
};

export const RESOURCE_LABELS: Record<string, string> = {
  record: 'Historia clínica',
  appointment: 'Cita',
  user: 'Paciente',
  staff: 'Personal',
  account: 'Cuenta',
  'view-config': 'Formulario',
  centre: 'Centro',
  session: 'Sesión',
  'audit-trail': 'Registro de accesos',
  'signing-key': 'Clave de firma',
  invoice: 'Factura',
};

export const roleLabel = (rol: string) => ROLE_LABELS[rol] ?? rol;
export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;
export const resourceLabel = (resource: string) => RESOURCE_LABELS[resource] ?? resource;
