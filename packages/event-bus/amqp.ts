// The `@crm/event-bus/amqp` entry: RabbitMQ transport only, no mongoose (see README.md, Entry points).
// A file rather than only an `exports` map: the repo's TypeScript resolves packages with node10
// rules, which ignore `exports` but find `<package>/amqp.ts` by path.
export * from './src/amqp';
