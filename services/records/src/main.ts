import './tracing';
import { runService } from '@crm/server-kit/service';
import { createRecordsService } from './app';
import { loadRecordsConfig } from './config';

runService('records', loadRecordsConfig, createRecordsService);
