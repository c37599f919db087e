import './tracing';
import { runService } from '@crm/server-kit/service';
import { createReportingService } from './app';
import { loadReportingConfig } from './config';

runService('reporting', loadReportingConfig, createReportingService);
