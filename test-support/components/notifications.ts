import { createNotificationsService } from '../../services/notifications/src/app';
import { loadNotificationsConfig } from '../../services/notifications/src/config';
import { serviceComponent } from './service-component';

/**
 * The e-mail worker (no HTTP but its probes). Its e-mails show the centre profile read from
 * `CONFIG_SERVICE_URL`: list `config` before `notifications` in the stack's components for the
 * stack's own profile (without one it reads whatever that variable points at and falls back to
 * `CENTRE_PROFILE_SEED`).
 */
export const startNotifications = serviceComponent(
  'notifications',
  loadNotificationsConfig,
  createNotificationsService,
  { http: false },
);
