import { createAuditService } from '../../services/audit/src/app';
import { loadAuditConfig } from '../../services/audit/src/config';
import { serviceComponent } from './service-component';

/** The access trail: its own database; consuming entries and staff names before the stack is used. */
export const startAudit = serviceComponent('audit', loadAuditConfig, createAuditService);
