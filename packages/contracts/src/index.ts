export * from './api';
export * from './events';
export * from './phone';
export * from './roles';
export * from './session-keys';
