import { DeadLetterBox } from '@crm/event-bus';
import type { ServiceRuntime } from '@crm/server-kit/service';
import type { ReportingConfig } from '../config';
import { SystemStatus } from './system-status';
import { systemHandlers } from './system.routes';

/** "Estado del sistema" on the reporting service's runtime (its broker connection and access trail). */
export function createSystemStatus(runtime: ServiceRuntime, config: ReportingConfig) {
  const system = new SystemStatus({
    urls: {
      auth: config.AUTH_SERVICE_URL,
      appointments: config.APPOINTMENTS_SERVICE_URL,
      records: config.RECORDS_SERVICE_URL,
      rooms: config.ROOMS_SERVICE_URL,
      config: config.CONFIG_SERVICE_URL,
      audit: config.AUDIT_SERVICE_URL,
      reporting: config.REPORTING_SERVICE_URL,
      payments: config.PAYMENTS_SERVICE_URL,
      notifications: config.NOTIFICATIONS_SERVICE_URL,
    },
    queuePrefix: config.QUEUE_PREFIX,
    deadLetters: new DeadLetterBox({ connection: runtime.bus.connection }),
    timeoutMs: config.SYSTEM_STATUS_TIMEOUT_MS,
  });
  return systemHandlers(system, runtime.audit);
}
