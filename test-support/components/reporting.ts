import { createReportingService } from '../../services/reporting/src/app';
import { loadReportingConfig } from '../../services/reporting/src/config';
import { serviceComponent } from './service-component';

/** The dashboard's read model: its own database; consuming appointments' and records' events before the stack is used. */
export const startReporting = serviceComponent('reporting', loadReportingConfig, createReportingService);
