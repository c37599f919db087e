import { createRoomsService } from '../../services/rooms/src/app';
import { loadRoomsConfig } from '../../services/rooms/src/config';
import { serviceComponent } from './service-component';

export const startRooms = serviceComponent('rooms', loadRoomsConfig, createRoomsService);
