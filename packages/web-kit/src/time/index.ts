/**
 * `@crm/web-kit/time`: Atlantic/Canary wall-clock time, appointment and room slots. A sub-module of
 * its own (not on the main entry) so that moment-timezone loads only with the pages that use it.
 */
export * from './canary-time';
