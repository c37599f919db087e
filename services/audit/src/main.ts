import './tracing';
import { runService } from '@crm/server-kit/service';
import { createAuditService } from './app';
import { loadAuditConfig } from './config';

runService('audit', loadAuditConfig, createAuditService);
