/**
 * `@crm/server-kit/service`: what a deployable with a database needs (mongoose, the event bus), kept
 * off the package's main entry so that the gateway, which has no database, never loads mongoose.
 */
export * from './types';
export * from './mongo';
export * from './paging';
export * from './day-pages';
export * from './search-keys';
export * from './run-service';
export * from './service-runtime';
export * from './audit-trail';
export * from './ended-sessions';
export * from './internal-status';
