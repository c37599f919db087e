import './tracing';
import { runService } from '@crm/server-kit/service';
import { createConfigService } from './app';
import { loadConfigServiceConfig } from './config';

runService('config', loadConfigServiceConfig, createConfigService);
