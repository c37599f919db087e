// The `@crm/server-kit/tracing` entry (resolved by path like ./service.ts): start tracing first.
export * from './src/tracing';
