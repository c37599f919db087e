import './tracing';
import { runService } from '@crm/server-kit/service';
import { createAppointmentsService } from './app';
import { loadAppointmentsConfig } from './config';

runService('appointments', loadAppointmentsConfig, createAppointmentsService);
