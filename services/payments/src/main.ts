import './tracing';
import { runService } from '@crm/server-kit/service';
import { createPaymentsService } from './app';
import { loadPaymentsConfig } from './config';

runService('payments', loadPaymentsConfig, createPaymentsService);
