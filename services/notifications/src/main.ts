import './tracing';
import { runService } from '@crm/server-kit/service';
import { createNotificationsService } from './app';
import { loadNotificationsConfig } from './config';

runService('notifications', loadNotificationsConfig, createNotificationsService);
