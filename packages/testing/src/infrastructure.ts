import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface InfrastructureUrls {
  mongoUrl: string;
  amqpUrl: string;
  redisUrl: string;
  smtpUrl: string;
  /** Mailpit's HTTP API (or a compatible catcher). */
  mailApiUrl: string;
}

const LOCAL: InfrastructureUrls = {
  mongoUrl: 'mongodb://127.0.0.1:27017',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: 'redis://127.0.0.1:6379',
  smtpUrl: 'smtp://127.0.0.1:1025',
  mailApiUrl: 'http://127.0.0.1:8025',
};

function fromEnvironment(): InfrastructureUrls | undefined {
  const { MONGO_URL, AMQP_URL, REDIS_URL, SMTP_URL, MAILPIT_URL } = process.env;
  if (!MONGO_URL || !AMQP_URL || !REDIS_URL) return undefined;
  return {
    mongoUrl: MONGO_URL,
    amqpUrl: AMQP_URL,
    redisUrl: REDIS_URL,
    smtpUrl: SMTP_URL ?? LOCAL.smtpUrl,
    mailApiUrl: MAILPIT_URL ?? LOCAL.mailApiUrl,
  };
}

function dockerEngineReachable(): boolean {
  return Boolean(process.env.DOCKER_HOST) || existsSync('/var/run/docker.sock');
}

let started: Promise<InfrastructureUrls> | undefined;

/** MongoDB 7, RabbitMQ, Redis and Mailpit in containers, started once per test worker. */
async function fromTestcontainers(): Promise<InfrastructureUrls> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const [mongo, rabbit, redis, mail] = await Promise.all([
    new GenericContainer('mongo:7').withExposedPorts(27017).start(),
    new GenericContainer('rabbitmq:3-management')
      .withExposedPorts(5672)
      .withWaitStrategy(Wait.forLogMessage('Server startup complete'))
      .start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
    new GenericContainer('axllent/mailpit').withExposedPorts(1025, 8025).start(),
  ]);
  const host = (c: { getHost(): string }) => c.getHost();
  return {
    mongoUrl: `mongodb://${host(mongo)}:${mongo.getMappedPort(27017)}`,
    amqpUrl: `amqp://guest:guest@${host(rabbit)}:${rabbit.getMappedPort(5672)}`,
    redisUrl: `redis://${host(redis)}:${redis.getMappedPort(6379)}`,
    smtpUrl: `smtp://${host(mail)}:${mail.getMappedPort(1025)}`,
    mailApiUrl: `http://${host(mail)}:${mail.getMappedPort(8025)}`,
  };
}

/** Runs the repository's local infrastructure script (idempotent and fast when all is up). */
async function fromLocalScript(): Promise<InfrastructureUrls> {
  const script = path.resolve(__dirname, '../../../scripts/infra-up.ts');
  execFileSync(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore', timeout: 10 * 60_000 });
  return LOCAL;
}

/**
 * Where the tests find their infrastructure: URLs from the environment first (what `npm test` sets
 * after running the local infrastructure script), else containers when a Docker engine is reachable,
 * else the local infrastructure script (`npm run infra:up`) and its addresses on 127.0.0.1.
 */
export function infrastructure(): Promise<InfrastructureUrls> {
  const env = fromEnvironment();
  if (env) return Promise.resolve(env);
  started ??=
    dockerEngineReachable() && process.env.TESTCONTAINERS !== 'off'
      ? fromTestcontainers()
      : fromLocalScript();
  return started;
}

/** A name unique to this test file's run, for databases, exchanges and queues. */
export function uniqueName(prefix: string): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}
