/**
 * How a patient reads the trail: "Consultó su cita", "Modificó su historia clínica"… from the
 * vocabulary of services/audit/README.md (`<resource>.<verb>`), with a sentence for unknown pairs.
 */

export const ROLE_NAMES: Record<string, string> = {
  DOCTOR: 'Médico',
  ADMIN: 'Administrador',
  SERVICE_ACCOUNT: 'Quiosco',
  PACIENT: 'Paciente',
  ANONYMOUS: 'Desconocido',
};

export const roleName = (rol: string): string => ROLE_NAMES[rol] ?? 'Personal del centro';

const SENTENCES: Record<string, string> = {
  'record.read': 'Consultó su historia clínica',
  'record.list': 'Vio su historia clínica en un listado',
  'record.create': 'Abrió su historia clínica',
  'record.update': 'Modificó su historia clínica',
  'appointment.read': 'Consultó su cita',
  'appointment.list': 'Vio su cita en el listado de citas',
  'appointment.book': 'Le reservó una cita',
  'appointment.cancel': 'Canceló su cita',
  'appointment.delete': 'Eliminó su cita',
  'user.read': 'Consultó sus datos personales',
  'user.list': 'Vio sus datos en el listado de pacientes',
  'user.create': 'Le registró como paciente',
  'user.update': 'Modificó sus datos personales',
  'data.export': 'Exportó sus datos',
  'audit.export': 'Exportó un registro de accesos en el que aparece usted',
  'invoice.export': 'Exportó las facturas de un periodo, entre ellas la suya',
};

/** "su historia clínica", "su cita"… the object of a sentence, by resource. */
const OBJECTS: Record<string, string> = {
  record: 'su historia clínica',
  appointment: 'su cita',
  user: 'sus datos personales',
  'audit-trail': 'el registro de accesos',
  invoice: 'su factura',
};

const VERBS: Record<string, string> = {
  read: 'Consultó',
  list: 'Vio en un listado',
  create: 'Creó',
  update: 'Modificó',
  cancel: 'Canceló',
  delete: 'Eliminó',
  export: 'Exportó',
};

/** The sentence of one access ("Consultó su cita"); never the raw code. */
export function accessSentence(action: string, resource: string): string {
  const known = SENTENCES[action];
  if (known) return known;
  const verb = VERBS[action.split('.').pop() ?? ''];
  const object = OBJECTS[resource] ?? 'sus datos';
  return verb ? `${verb} ${object}` : `Accedió a ${object}`;
}
