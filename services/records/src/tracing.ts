// Imported first by main.ts: tracing must start before express, mongoose, amqplib and ioredis load.
import { startTracing } from '@crm/server-kit/tracing';

startTracing('records');
