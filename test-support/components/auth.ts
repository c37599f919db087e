import { createAuthService } from '../../services/auth/src/app';
import { loadAuthConfig } from '../../services/auth/src/config';
import { serviceComponent } from './service-component';

export const startAuth = serviceComponent('auth', loadAuthConfig, createAuthService);
