/**
 * The tests' side of the broker, as its operator: what a deployment's RabbitMQ definitions declare
 * ahead of the deployables (the events exchange, the audit entries queue), clean-up, and the topic
 * permissions of a stack's own exchange. Products never connect as this user.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import amqp from 'amqplib';
import {
  ANY_QUEUE_PREFIX,
  auditEntriesQueue,
  auditEntryRecorded,
  brokerPermissions,
  BUS_PARTICIPANTS,
} from '@crm/contracts';
import { eventually } from './polling';

const run = promisify(execFile);

async function withChannel(amqpUrl: string, work: (channel: amqp.Channel) => Promise<void>): Promise<void> {
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    await work(channel);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * Declares what the broker's definitions declare in a deployment: the events exchange, and the audit
 * entries queue bound to it (its publishers may not declare it, and entries sent before the audit
 * service starts must be kept).
 */
export async function prepareBus(
  amqpUrl: string,
  { exchange, queuePrefix }: { exchange: string; queuePrefix: string },
) {
  await withChannel(amqpUrl, async (channel) => {
    await channel.assertExchange(exchange, 'topic', { durable: true });
    const audit = auditEntriesQueue(queuePrefix);
    await channel.assertQueue(audit, { durable: true });
    await channel.bindQueue(audit, exchange, auditEntryRecorded.name);
  });
}

/**
 * Waits until `queue` is declared with at least `consumers` consumers bound to it (0: declared is
 * enough), so that what is published from then on is handled.
 */
export async function waitForQueue(
  amqpUrl: string,
  queue: string,
  { consumers = 1, timeoutMs = 15_000 }: { consumers?: number; timeoutMs?: number } = {},
): Promise<void> {
  const connection = await amqp.connect(amqpUrl);
  connection.on('error', () => undefined);
  try {
    await eventually(
      async () => {
        // A missing queue closes the channel that asked, so every look has a fresh one.
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        const found = await channel.checkQueue(queue).catch(() => undefined);
        await channel.close().catch(() => undefined);
        return found !== undefined && found.consumerCount >= consumers;
      },
      timeoutMs,
      consumers > 0 ? `${consumers} consumer(s) on ${queue}` : `queue ${queue} declared`,
    );
  } finally {
    await connection.close().catch(() => undefined);
  }
}

const baseQueue = (name: string) => name.replace(/\.(retry|dlq)$/, '');

/** Deletes queues with their retry and dead-letter queues and their copies exchange (clean-up; best effort). */
export async function deleteQueues(
  amqpUrl: string,
  queues: readonly string[],
  exchanges: readonly string[] = [],
) {
  if (queues.length === 0 && exchanges.length === 0) return;
  await withChannel(amqpUrl, async (channel) => {
    const bases = new Set(queues.map(baseQueue));
    for (const queue of bases) {
      for (const name of [queue, `${queue}.retry`, `${queue}.dlq`])
        await channel.deleteQueue(name).catch(() => undefined);
      await channel.deleteExchange(`${queue}.copies`).catch(() => undefined);
    }
    for (const exchange of exchanges) await channel.deleteExchange(exchange).catch(() => undefined);
  }).catch(() => undefined);
}

/** The vhost of an AMQP URL (`/` when it names none). */
const vhostOf = (amqpUrl: string) => decodeURIComponent(new URL(amqpUrl).pathname.slice(1)) || '/';

/** An Erlang binary literal. */
const binary = (text: string) => `<<"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}">>`;

async function rabbitmqctlEval(expression: string): Promise<void> {
  await run('rabbitmqctl', ['eval', expression], { timeout: 60_000 });
}

/**
 * Gives every deployable's broker user the topic permissions of its contracts on `exchange`, as the
 * definitions do for `crm.events` in a deployment (RabbitMQ keys topic permissions by exchange name,
 * and each stack has an exchange of its own). Needs `rabbitmqctl` on this machine (the local
 * broker): one call for all users.
 */
export async function restrictTopics(amqpUrl: string, exchange: string): Promise<void> {
  const vhost = vhostOf(amqpUrl);
  const rows = BUS_PARTICIPANTS.map((participant) => {
    const { topic } = brokerPermissions(participant, { exchange, queuePrefixPattern: ANY_QUEUE_PREFIX });
    return `{${binary(participant)}, ${binary(topic.write)}, ${binary(topic.read)}}`;
  });
  await rabbitmqctlEval(
    `[ok = rabbit_auth_backend_internal:set_topic_permissions(U, ${binary(vhost)}, ${binary(exchange)}, W, R, <<"crm-tests">>) || {U, W, R} <- [${rows.join(', ')}]], ok.`,
  );
}

/** Removes what restrictTopics set (best effort: left over, they concern an exchange that no longer exists). */
export async function liftTopicRestrictions(amqpUrl: string, exchange: string): Promise<void> {
  const users = BUS_PARTICIPANTS.map(binary).join(', ');
  await rabbitmqctlEval(
    `[rabbit_auth_backend_internal:clear_topic_permissions(U, ${binary(vhostOf(amqpUrl))}, ${binary(exchange)}, <<"crm-tests">>) || U <- [${users}]], ok.`,
  ).catch(() => undefined);
}
