/**
 * Each deployable's own configuration loader, by its name in docker-compose.yml and the Kubernetes
 * base: what its `main.ts` runs first, so a deployment's environment can be checked without starting it.
 */
import { loadGatewayConfig } from '../gateway/src/config';
import { loadAppointmentsConfig } from '../services/appointments/src/config';
import { loadAuditConfig } from '../services/audit/src/config';
import { loadAuthConfig } from '../services/auth/src/config';
import { loadConfigServiceConfig } from '../services/config/src/config';
import { loadNotificationsConfig } from '../services/notifications/src/config';
import { loadPaymentsConfig } from '../services/payments/src/config';
import { loadRecordsConfig } from '../services/records/src/config';
import { loadReportingConfig } from '../services/reporting/src/config';
import { loadRoomsConfig } from '../services/rooms/src/config';

export const CONFIG_LOADERS: Record<string, (env: NodeJS.ProcessEnv) => Record<string, unknown>> = {
  gateway: loadGatewayConfig,
  auth: loadAuthConfig,
  appointments: loadAppointmentsConfig,
  records: loadRecordsConfig,
  rooms: loadRoomsConfig,
  config: loadConfigServiceConfig,
  notifications: loadNotificationsConfig,
  audit: loadAuditConfig,
  reporting: loadReportingConfig,
  payments: loadPaymentsConfig,
};
