import { startAuth } from './auth';
import { startNotifications } from './notifications';
import type { ComponentStarter } from './types';

/**
 * Every deployable a test stack can start, by name. The key of a service is also the prefix of
 * its gateway setting (`auth` → AUTH_SERVICE_URL). Add a line here when a service is added.
 */
export const COMPONENTS = {
  auth: startAuth,
  notifications: startNotifications,
  rooms: (context) => import('./rooms').then(({ startRooms }) => startRooms(context)),
  appointments: (context) =>
    import('./appointments').then(({ startAppointments }) => startAppointments(context)),
  config: (context) => import('./config').then(({ startConfig }) => startConfig(context)),
  records: (context) => import('./records').then(({ startRecords }) => startRecords(context)),
  audit: (context) => import('./audit').then(({ startAudit }) => startAudit(context)),
  reporting: (context) => import('./reporting').then(({ startReporting }) => startReporting(context)),
} satisfies Record<string, ComponentStarter>;

export type ComponentName = keyof typeof COMPONENTS;
