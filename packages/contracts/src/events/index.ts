export * from './envelope';
export * from './auth.events';
export * from './rooms.events';
export * from './appointments.events';
export * from './config.events';
export * from './records.events';
export * from './audit.events';
export * from './notifications.events';
