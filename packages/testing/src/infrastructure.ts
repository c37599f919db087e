import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import {
  ANY_EVENTS_EXCHANGE,
  ANY_QUEUE_PREFIX,
  brokerDefinitions,
  brokerPasswordVariable,
  BUS_PARTICIPANTS,
  DEFAULT_EVENTS_EXCHANGE,
  participantAmqpUrl,
  type BusParticipant,
} from '@crm/contracts';

export interface InfrastructureUrls {
  mongoUrl: string;
  /** The operator's broker user: the tests' own listeners, set-up and clean-up. Products never use it. */
  amqpUrl: string;
  /** Each deployable's own broker user (one per deployable, see @crm/contracts broker-access.ts). */
  busUrls: Record<BusParticipant, string>;
  redisUrl: string;
  smtpUrl: string;
  /** Mailpit's HTTP API (or a compatible catcher). */
  mailApiUrl: string;
}

const LOCAL = {
  mongoUrl: 'mongodb://127.0.0.1:27017',
  amqpUrl: 'amqp://guest:guest@127.0.0.1:5672',
  redisUrl: 'redis://127.0.0.1:6379',
  smtpUrl: 'smtp://127.0.0.1:1025',
  mailApiUrl: 'http://127.0.0.1:8025',
};

/**
 * Where `npm start`, `npm test` and infra-up keep the machine's random secrets (scripts/lib/dev-env.ts
 * `localSecretsFile`, scripts/lib/paths.ts `machineSecretsFile`: the same rule).
 */
function secretsFile(env: NodeJS.ProcessEnv): string {
  if (env.LOCAL_SECRETS_FILE) return env.LOCAL_SECRETS_FILE;
  const state = env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  return path.join(state, 'crm-platform', 'secrets.env');
}

/**
 * The deployables' broker URLs on the broker of `amqpUrl`: their passwords from the environment
 * (`npm test` puts the machine's secrets there), else from the secrets file infra-up created the
 * users with.
 */
export function busUrlsFor(
  amqpUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<BusParticipant, string> {
  const file = secretsFile(process.env);
  const stored = existsSync(file)
    ? (parseEnv(readFileSync(file, 'utf8')) as Record<string, string | undefined>)
    : {};
  const urls = {} as Record<BusParticipant, string>;
  for (const participant of BUS_PARTICIPANTS) {
    const variable = brokerPasswordVariable(participant);
    const password = env[variable] || stored[variable];
    if (!password)
      throw new Error(
        `${variable} is not set and ${file} does not hold it: run \`npm run infra:up\`, which creates the broker users`,
      );
    urls[participant] = participantAmqpUrl(amqpUrl, participant, password);
  }
  return urls;
}

function fromEnvironment(): InfrastructureUrls | undefined {
  const { MONGO_URL, AMQP_URL, REDIS_URL, SMTP_URL, MAILPIT_URL } = process.env;
  if (!MONGO_URL || !AMQP_URL || !REDIS_URL) return undefined;
  return {
    mongoUrl: MONGO_URL,
    amqpUrl: AMQP_URL,
    busUrls: busUrlsFor(AMQP_URL),
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
  // The deployables' broker users, with passwords made for this run, as the definitions of compose create them.
  const passwords = Object.fromEntries(
    BUS_PARTICIPANTS.map((participant) => [
      brokerPasswordVariable(participant),
      randomBytes(24).toString('base64url'),
    ]),
  );
  const definitions = brokerDefinitions({
    exchange: DEFAULT_EVENTS_EXCHANGE,
    queuePrefix: 'crm',
    queuePrefixPattern: ANY_QUEUE_PREFIX,
    exchangePattern: ANY_EVENTS_EXCHANGE,
    password: (participant) => passwords[brokerPasswordVariable(participant)]!,
    declareVhost: false,
  });
  await rabbit.copyContentToContainer([
    { content: JSON.stringify(definitions), target: '/tmp/crm-definitions.json' },
  ]);
  const imported = await rabbit.exec(['rabbitmqctl', 'import_definitions', '/tmp/crm-definitions.json']);
  if (imported.exitCode !== 0) throw new Error(`broker users not created: ${imported.output}`);
  const amqpUrl = `amqp://guest:guest@${host(rabbit)}:${rabbit.getMappedPort(5672)}`;
  return {
    mongoUrl: `mongodb://${host(mongo)}:${mongo.getMappedPort(27017)}`,
    amqpUrl,
    busUrls: busUrlsFor(amqpUrl, passwords),
    redisUrl: `redis://${host(redis)}:${redis.getMappedPort(6379)}`,
    smtpUrl: `smtp://${host(mail)}:${mail.getMappedPort(1025)}`,
    mailApiUrl: `http://${host(mail)}:${mail.getMappedPort(8025)}`,
  };
}

/** Runs the repository's local infrastructure script (idempotent and fast when all is up). */
async function fromLocalScript(): Promise<InfrastructureUrls> {
  const script = path.resolve(__dirname, '../../../scripts/infra-up.ts');
  execFileSync(process.execPath, ['--import', 'tsx', script], { stdio: 'ignore', timeout: 10 * 60_000 });
  return { ...LOCAL, busUrls: busUrlsFor(LOCAL.amqpUrl) };
}

/**
 * Containers with the official images; where an engine runs but no registry answers (the pull
 * fails), the local infrastructure instead. Either way the output says which.
 */
async function fromContainersOrLocal(): Promise<InfrastructureUrls> {
  try {
    const urls = await fromTestcontainers();
    console.log('infrastructure: containers (mongo:7, rabbitmq:3-management, redis:7, axllent/mailpit)');
    return urls;
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    console.log(
      `infrastructure: local (scripts/infra-up.ts) — the container images could not be had: ${reason}`,
    );
    return fromLocalScript();
  }
}

/**
 * Where the tests find their infrastructure: URLs from the environment first (what `npm test` sets
 * after running the local infrastructure script), else containers when a Docker engine is reachable
 * and the images can be pulled, else the local infrastructure script (`npm run infra:up`) and its
 * addresses on 127.0.0.1.
 */
export function infrastructure(): Promise<InfrastructureUrls> {
  const env = fromEnvironment();
  if (env) return Promise.resolve(env);
  started ??=
    dockerEngineReachable() && process.env.TESTCONTAINERS !== 'off'
      ? fromContainersOrLocal()
      : fromLocalScript();
  return started;
}
