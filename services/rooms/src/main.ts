import './tracing';
import { runService } from '@crm/server-kit/service';
import { createRoomsService } from './app';
import { loadRoomsConfig } from './config';

runService('rooms', loadRoomsConfig, createRoomsService);
