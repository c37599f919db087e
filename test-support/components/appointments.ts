import { createAppointmentsService } from '../../services/appointments/src/app';
import { loadAppointmentsConfig } from '../../services/appointments/src/config';
import { serviceComponent } from './service-component';

/** Needs `AUTH_SERVICE_URL` in `env`: the stack sets it once auth (always started first) is up. */
export const startAppointments = serviceComponent(
  'appointments',
  loadAppointmentsConfig,
  createAppointmentsService,
);
