// The `@crm/event-bus/trace-context` entry: the bus's W3C trace context and its spans, on the
// OpenTelemetry API alone (no amqplib, no mongoose), so a process can load it before the tracing SDK
// has instrumented those (see amqp.ts for why a file besides the `exports` map).
export * from './src/trace-context';
