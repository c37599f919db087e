import { createConfigService } from '../../services/config/src/app';
import { loadConfigServiceConfig } from '../../services/config/src/config';
import { serviceComponent } from './service-component';

export const startConfig = serviceComponent('config', loadConfigServiceConfig, createConfigService);
