// The `@crm/server-kit/service` entry (resolved by path: the repo's TypeScript uses node10 resolution).
export * from './src/service';
