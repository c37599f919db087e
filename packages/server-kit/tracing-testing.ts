// The `@crm/server-kit/tracing-testing` entry: in-memory spans for tests (loads the SDK).
export * from './src/tracing/testing';
