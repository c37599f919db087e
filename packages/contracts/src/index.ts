export * from './api';
export * from './events';
export * from './booking-rules';
export * from './centre-hours';
export * from './name-search';
export * from './phone';
export * from './roles';
export * from './session-keys';
