/**
 * What each deployable may do on RabbitMQ, derived from the event contracts (who publishes and who
 * consumes each event), so the broker's permissions cannot drift from the code: one broker user per
 * deployable (participants.ts), allowed to
 *
 *   configure   its own queues and exchanges: `<prefix>.<deployable>.…` (a consumer's queue, its
 *               `.retry`/`.dlq` queues and its `.copies` exchange); never the events exchange;
 *   write       those, and the events exchange if it publishes anything;
 *   read        those, and the events exchange if it consumes anything (to bind its queues);
 *   topic       on the events exchange: publish only the routing keys (event names) it is a publisher
 *               of, bind only those it is a consumer of.
 *
 * No deployable may write to the default exchange (`amq.default`), so none can drop a message into
 * another's queue by name. The same derivation feeds the local broker (scripts/infra-up.ts), the
 * test harness, and the definitions files of compose and Kubernetes (scripts/bus/definitions.ts).
 */
import { auditEntryRecorded } from './audit.events';
import { escapeRegex } from '../name-search';
import { BUS_PARTICIPANTS, type BusParticipant } from './participants';
import { EVENT_CONTRACTS } from './registry';

/** A consumer queue of the service runtime: `<QUEUE_PREFIX>.<deployable>.<purpose>`. */
export const consumerQueueName = (
  queuePrefix: string,
  participant: BusParticipant,
  purpose: string,
): string => `${queuePrefix}.${participant}.${purpose}`;

/**
 * The audit service's queue of trail entries. Declared by the broker's definitions (and the local
 * infrastructure, and the test harness) rather than by its publishers, which may not configure it:
 * entries published before the audit service ever started are kept.
 */
export const auditEntriesQueue = (queuePrefix: string): string =>
  consumerQueueName(queuePrefix, 'audit', 'entries');

/** The topic exchange of the events unless EVENTS_EXCHANGE says otherwise. */
export const DEFAULT_EVENTS_EXCHANGE = 'crm.events';

/** Any queue prefix without dots: for a development broker shared by `npm start` and the tests' stacks. */
export const ANY_QUEUE_PREFIX = '[A-Za-z0-9_-]+';
/** `<any prefix>.events`: the events exchange of `npm start` (`crm.events`) and of every test stack. */
export const ANY_EVENTS_EXCHANGE = `${ANY_QUEUE_PREFIX}\\.events`;

export interface BrokerLayout {
  /** The topic exchange of the events (EVENTS_EXCHANGE, default `crm.events`): its topic permissions. */
  exchange: string;
  /**
   * Regular expression of the events exchanges the users may write to and read from; default
   * exactly `exchange`. A development broker shared with the tests' stacks, each on an exchange of
   * its own, uses ANY_EVENTS_EXCHANGE.
   */
  exchangePattern?: string;
  /** Regular expression of the queue prefix (`escapeRegex(QUEUE_PREFIX)`, or ANY_QUEUE_PREFIX). */
  queuePrefixPattern: string;
}

export interface BrokerPermissions {
  user: BusParticipant;
  configure: string;
  write: string;
  read: string;
  topic: { exchange: string; write: string; read: string };
}

/** The event names a deployable publishes, and those it consumes. */
export function eventsOf(participant: BusParticipant): { publishes: string[]; consumes: string[] } {
  return {
    publishes: EVENT_CONTRACTS.filter((c) => c.publishers.includes(participant)).map((c) => c.name),
    consumes: EVENT_CONTRACTS.filter((c) => c.consumers.includes(participant)).map((c) => c.name),
  };
}

/** `^(a|b)$` of the escaped names; `^$` (no routing key in use) when there are none. */
const exactlyOneOf = (names: readonly string[]): string =>
  names.length === 0 ? '^$' : `^(${names.map(escapeRegex).join('|')})$`;

/**
 * The deployable that looks after every consumer's dead letters (the back office's "Estado del
 * sistema", docs/operations.md "Dead letters"): besides its own, it may read every `<queue>.dlq`
 * (take its messages without acking them, ack one) and write to every `<queue>.copies` exchange (send
 * one back to its queue with the key `return`, as the consumer's retries come back). Reading a queue's
 * depth is a passive declare, which needs no permission.
 */
export const DEAD_LETTER_KEEPER: BusParticipant = 'reporting';

export function brokerPermissions(participant: BusParticipant, layout: BrokerLayout): BrokerPermissions {
  const { publishes, consumes } = eventsOf(participant);
  const own = `${layout.queuePrefixPattern}\\.${escapeRegex(participant)}\\.`;
  const exchange = layout.exchangePattern ?? escapeRegex(layout.exchange);
  const keeper = participant === DEAD_LETTER_KEEPER;
  const anyConsumerQueue = `${layout.queuePrefixPattern}\\.[^.]+\\.[^.]+`;
  const alternatives = (withExchange: boolean, extra: string | undefined) => [
    `${own}.+`,
    ...(withExchange ? [exchange] : []),
    ...(extra ? [extra] : []),
  ];
  const ownOr = (withExchange: boolean, extra?: string) => {
    const list = alternatives(withExchange, extra);
    return list.length === 1 ? `^${list[0]}$` : `^(${list.join('|')})$`;
  };
  return {
    user: participant,
    configure: `^${own}.+$`,
    write: ownOr(publishes.length > 0, keeper ? `${anyConsumerQueue}\\.copies` : undefined),
    read: ownOr(consumes.length > 0, keeper ? `${anyConsumerQueue}\\.dlq` : undefined),
    topic: { exchange: layout.exchange, write: exactlyOneOf(publishes), read: exactlyOneOf(consumes) },
  };
}

/** The environment variable holding a deployable's broker password: `RABBITMQ_<NAME>_PASSWORD`. */
export const brokerPasswordVariable = (participant: BusParticipant): string =>
  `RABBITMQ_${participant.toUpperCase()}_PASSWORD`;

/** `amqpUrl` (host, port, vhost, options) with the deployable's own user and password. */
export function participantAmqpUrl(amqpUrl: string, participant: BusParticipant, password: string): string {
  const url = new URL(amqpUrl);
  url.username = participant;
  url.password = password;
  return url.toString();
}

export interface BrokerDefinitionsOptions extends BrokerLayout {
  /** The exact queue prefix, for the queues the definitions declare (the audit entries queue). */
  queuePrefix: string;
  /** Each deployable's password, or a placeholder a boot script replaces. */
  password(participant: BusParticipant): string;
  /** An operator account with every permission (management UI, tests' listeners). */
  admin?: { name: string; password: string };
  vhost?: string;
  /** Also list the vhost itself (a broker that loads the file at boot). Default true. */
  declareVhost?: boolean;
}

/**
 * RabbitMQ definitions (the JSON of `rabbitmqctl import_definitions`, or `load_definitions` at boot):
 * the users and their permissions, the events exchange, and the audit entries queue bound to it.
 * Importing adds and updates; it never removes anything.
 */
export function brokerDefinitions(options: BrokerDefinitionsOptions) {
  const vhost = options.vhost ?? '/';
  const permissions = BUS_PARTICIPANTS.map((participant) => brokerPermissions(participant, options));
  const audit = auditEntriesQueue(options.queuePrefix);
  return {
    users: [
      ...(options.admin
        ? [{ name: options.admin.name, password: options.admin.password, tags: ['administrator'] }]
        : []),
      ...BUS_PARTICIPANTS.map((name) => ({ name, password: options.password(name), tags: [] as string[] })),
    ],
    ...(options.declareVhost === false ? {} : { vhosts: [{ name: vhost }] }),
    permissions: [
      ...(options.admin
        ? [{ user: options.admin.name, vhost, configure: '.*', write: '.*', read: '.*' }]
        : []),
      ...permissions.map(({ user, configure, write, read }) => ({ user, vhost, configure, write, read })),
    ],
    topic_permissions: permissions.map(({ user, topic }) => ({ user, vhost, ...topic })),
    exchanges: [
      {
        name: options.exchange,
        vhost,
        type: 'topic',
        durable: true,
        auto_delete: false,
        internal: false,
        arguments: {},
      },
    ],
    queues: [{ name: audit, vhost, durable: true, auto_delete: false, arguments: {} }],
    bindings: [
      {
        source: options.exchange,
        vhost,
        destination: audit,
        destination_type: 'queue',
        routing_key: auditEntryRecorded.name,
        arguments: {},
      },
    ],
  };
}

export type BrokerDefinitions = ReturnType<typeof brokerDefinitions>;
