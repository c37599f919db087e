/**
 * One RabbitMQ user per deployable on the local broker (@crm/contracts broker-access.ts): created
 * and given its permissions by one `rabbitmqctl import_definitions` of the definitions derived
 * from the event contracts, with the machine's random passwords (`~/.local/state/crm-platform/secrets.env`). Imported
 * again only when the definitions change (a new event, another password): the last import's
 * fingerprint is kept in `.infra/broker-users.sha256`. The operator user of AMQP_URL (guest) stays
 * as it is, for the tests' listeners and clean-up; no deployable uses it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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
import { localSecrets } from '../dev-env';
import { ensureDir, infraDir } from '../paths';
import { amqpCheck, hostPortOf, isLocalHost, waitFor } from '../probes';
import { which } from '../processes';
import type { Ctx } from './context';

/** Each deployable's broker password: the environment's (`.env`) if set, else the machine's random one. */
export function brokerPasswords(env: NodeJS.ProcessEnv = process.env): Record<BusParticipant, string> {
  const secrets = localSecrets();
  return Object.fromEntries(
    BUS_PARTICIPANTS.map((participant) => {
      const variable = brokerPasswordVariable(participant);
      return [participant, env[variable] || secrets[variable]!];
    }),
  ) as Record<BusParticipant, string>;
}

/** Each deployable's own AMQP URL: the operator's AMQP_URL with its user and password instead. */
export function deployableAmqpUrls(
  amqpUrl: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<BusParticipant, string> {
  const passwords = brokerPasswords(env);
  return Object.fromEntries(
    BUS_PARTICIPANTS.map((participant) => [
      participant,
      participantAmqpUrl(amqpUrl, participant, passwords[participant]),
    ]),
  ) as Record<BusParticipant, string>;
}

/**
 * The local broker's definitions: queue names under any prefix and any `<prefix>.events` exchange
 * (`npm start` uses `crm`, every test stack its own), topic permissions on EVENTS_EXCHANGE, which
 * is declared with the audit queue. (The tests' stacks get topic permissions on their own exchange
 * only when they ask: see @crm/testing `restrictTopics`.)
 */
export function localBrokerDefinitions(env: Record<string, string | undefined>) {
  const passwords = brokerPasswords(env);
  return brokerDefinitions({
    exchange: env.EVENTS_EXCHANGE || DEFAULT_EVENTS_EXCHANGE,
    queuePrefix: env.QUEUE_PREFIX || 'crm',
    queuePrefixPattern: ANY_QUEUE_PREFIX,
    exchangePattern: ANY_EVENTS_EXCHANGE,
    password: (participant) => passwords[participant],
    declareVhost: false,
  });
}

const fingerprintFile = () => path.join(infraDir(), 'broker-users.sha256');

/** `rabbitmqctl import_definitions`, the JSON on stdin (the node need not read our files). */
function importDefinitions(ctl: string, json: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(ctl, ['import_definitions'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', (err) => {
      clearTimeout(timer);
      resolve({ code: null, output: err.message });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.stdin.end(json);
  });
}

export async function ensureBrokerUsers(ctx: Ctx): Promise<void> {
  const url = ctx.env.AMQP_URL;
  if (ctx.reports.some((r) => r.component === 'rabbitmq' && r.status === 'failed')) return;
  const ctl = which('rabbitmqctl');
  if (!isLocalHost(hostPortOf(url, 5672).host) || !ctl) {
    ctx.report(
      'bus users',
      'skipped',
      'not a local RabbitMQ: create the users from `npx tsx scripts/bus/definitions.ts --print` (docs/operations.md)',
    );
    return;
  }
  const definitions = localBrokerDefinitions(ctx.env);
  const json = JSON.stringify(definitions);
  const fingerprint = createHash('sha256').update(json).digest('hex');
  const urls = deployableAmqpUrls(url, ctx.env);
  const allConnect = async () => {
    for (const participantUrl of Object.values(urls))
      if ((await amqpCheck(participantUrl)) !== null) return false;
    return true;
  };
  const previous = fs.existsSync(fingerprintFile()) ? fs.readFileSync(fingerprintFile(), 'utf8').trim() : '';
  const where = `topic permissions on ${definitions.exchanges[0]!.name}`;
  if (previous === fingerprint && (await allConnect())) {
    ctx.report('bus users', 'already up', `${BUS_PARTICIPANTS.length} broker users, ${where}`);
    return;
  }
  const imported = await importDefinitions(ctl, json);
  if (imported.code !== 0) {
    ctx.report(
      'bus users',
      'failed',
      `rabbitmqctl import_definitions: ${imported.output.trim().slice(0, 300)}`,
    );
    return;
  }
  // The import finishes in the background on the node: wait until every user can sign in.
  const reason = await waitFor(
    async () => ((await allConnect()) ? null : 'a broker user cannot connect yet'),
    {
      timeoutMs: 30_000,
      intervalMs: 500,
    },
  );
  if (reason !== null) {
    ctx.report('bus users', 'failed', reason);
    return;
  }
  ensureDir(infraDir());
  fs.writeFileSync(fingerprintFile(), `${fingerprint}\n`);
  ctx.report('bus users', 'ready', `${BUS_PARTICIPANTS.length} broker users (one per deployable), ${where}`);
}
