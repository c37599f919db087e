import './tracing';
import { runService } from '@crm/server-kit/service';
import { createAuthService } from './app';
import { loadAuthConfig } from './config';

runService('auth', loadAuthConfig, createAuthService);
