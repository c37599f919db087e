// Imported first by run.ts: with BENCH_TRACING=on the in-process stack is traced (instrumentations
// must be registered before express, mongoose, amqplib and ioredis load).
import { startBenchTracing } from '../lib/tracing-modes';

startBenchTracing('bench-booking');
