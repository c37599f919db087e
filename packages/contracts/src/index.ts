export * from './api';
export * from './events';
export * from './centre-hours';
export * from './phone';
export * from './roles';
export * from './session-keys';
