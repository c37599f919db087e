import {
  BUS_PARTICIPANTS,
  INTERNAL_STATUS_PATH,
  type BusParticipant,
  type DeadLetterView,
  type DeployableStatusView,
  type InternalStatus,
  type QueueStatusView,
  type Readiness,
  type SystemStatusView,
} from '@crm/contracts';
import type { DeadLetterAction, DeadLetterBox, DeadLetterSummary } from '@crm/event-bus';

/**
 * "Estado del sistema" (docs/product/back-office.md#system-status), owned by the reporting service:
 * it asks every deployable for `/readyz` and `/internal/status` (version, consumer queues, outbox
 * lag), reads each queue's depth from the broker, and looks after the dead letters with its broker
 * user, which may read every `.dlq` and send a message back through its queue's copies exchange
 * (DEAD_LETTER_KEEPER in @crm/contracts broker-access.ts; how a look is taken: event-bus
 * dead-letter-box.ts).
 */

/** The deployables shown: the gateway first (it speaks for itself through a header), then the rest. */
export const STATUS_DEPLOYABLES: readonly BusParticipant[] = [
  'gateway',
  ...BUS_PARTICIPANTS.filter((name) => name !== 'gateway'),
];
export type StatusDeployable = BusParticipant;

export interface SystemStatusOptions {
  /** Base URL of each deployable's HTTP server (not the gateway's). */
  urls: Partial<Record<StatusDeployable, string | undefined>>;
  queuePrefix: string;
  deadLetters: DeadLetterBox;
  timeoutMs: number;
}

async function getJson(
  url: string,
  timeoutMs: number,
): Promise<{ status: number; body: unknown } | undefined> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    const body: unknown = await response.json().catch(() => undefined);
    return { status: response.status, body };
  } catch {
    return undefined;
  }
}

const isInternalStatus = (value: unknown): value is InternalStatus =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as InternalStatus).version === 'string' &&
  Array.isArray((value as InternalStatus).queues);

/** `<prefix>.<deployable>.<purpose>` → deployable. */
const consumerOf = (queue: string, prefix: string) => queue.slice(prefix.length + 1).split('.')[0] ?? '';

export class SystemStatus {
  /** Every consumer queue any deployable has reported (so a queue stays manageable while its consumer is down). */
  private readonly known = new Set<string>();

  constructor(private readonly options: SystemStatusOptions) {
    // The gateway's cache of the form configuration has a queue of its own and no internal status.
    this.known.add(`${options.queuePrefix}.gateway.view-cache`);
  }

  private async deployable(
    name: StatusDeployable,
    gatewayHeader: string | undefined,
  ): Promise<DeployableStatusView> {
    if (name === 'gateway') {
      let version: { version?: unknown; commit?: unknown } = {};
      try {
        version = gatewayHeader ? (JSON.parse(gatewayHeader) as typeof version) : {};
      } catch {
        version = {};
      }
      return {
        name,
        // It relayed this very call.
        readiness: gatewayHeader ? 'ready' : 'unknown',
        version: typeof version.version === 'string' ? version.version : null,
        commit: typeof version.commit === 'string' ? version.commit : null,
        outbox: null,
      };
    }
    const base = this.options.urls[name];
    if (!base) return { name, readiness: 'unknown', version: null, commit: null, outbox: null };
    const [ready, status] = await Promise.all([
      getJson(`${base}/readyz`, this.options.timeoutMs),
      this.internalStatus(base),
    ]);
    const readiness: Readiness = !ready ? 'unreachable' : ready.status === 200 ? 'ready' : 'not-ready';
    return {
      name,
      readiness,
      version: status?.version ?? null,
      commit: status?.commit ?? null,
      outbox: status?.outbox ?? null,
    };
  }

  /** A deployable's `/internal/status`, whose queues it remembers; undefined when it does not answer. */
  private async internalStatus(base: string): Promise<InternalStatus | undefined> {
    const internal = await getJson(`${base}${INTERNAL_STATUS_PATH}`, this.options.timeoutMs);
    const status = internal?.status === 200 && isInternalStatus(internal.body) ? internal.body : undefined;
    for (const queue of status?.queues ?? [])
      if (queue.startsWith(`${this.options.queuePrefix}.`)) this.known.add(queue);
    return status;
  }

  private async queue(queue: string): Promise<QueueStatusView> {
    const [main, retry, dlq] = await this.options.deadLetters.depths(queue).catch(() => [null, null, null]);
    return {
      queue,
      deployable: consumerOf(queue, this.options.queuePrefix),
      messages: main?.messages ?? null,
      retry: retry?.messages ?? null,
      deadLetters: dlq?.messages ?? null,
      consumers: main?.consumers ?? null,
    };
  }

  async status(gatewayHeader: string | undefined): Promise<SystemStatusView> {
    const deployables = await Promise.all(
      STATUS_DEPLOYABLES.map((name) => this.deployable(name, gatewayHeader)),
    );
    const queues = await Promise.all(this.knownQueues().map((queue) => this.queue(queue)));
    return { checkedAt: new Date().toISOString(), deployables, queues };
  }

  /** Known queues; asks the deployables first when none of theirs is known yet. */
  async refreshKnown(): Promise<void> {
    await Promise.all(
      STATUS_DEPLOYABLES.map((name) => {
        const base = this.options.urls[name];
        return base ? this.internalStatus(base) : undefined;
      }),
    );
  }

  knownQueues(): string[] {
    return [...this.known].sort();
  }

  /**
   * A consumer queue of this deployment: reported by its deployable, or named
   * `<prefix>.<deployable>.<purpose>` after one of the deployables and present on the broker with its
   * `.dlq` (a consumer of a replica or version the others do not list yet); remembered from then on.
   */
  async isKnown(queue: string): Promise<boolean> {
    if (this.known.has(queue)) return true;
    await this.refreshKnown();
    if (this.known.has(queue)) return true;
    const [prefix, deployable] = [
      queue.slice(0, this.options.queuePrefix.length),
      consumerOf(queue, this.options.queuePrefix),
    ];
    if (
      prefix !== this.options.queuePrefix ||
      !(STATUS_DEPLOYABLES as readonly string[]).includes(deployable)
    )
      return false;
    const dlq = await this.options.deadLetters.depth(`${queue}.dlq`).catch(() => undefined);
    if (dlq?.messages === null || dlq === undefined) return false;
    this.known.add(queue);
    return true;
  }

  /** Dead letters of one queue or of every known queue (only those whose `.dlq` holds any are looked at). */
  async deadLetters(queue?: string): Promise<DeadLetterView[]> {
    if (!queue) await this.refreshKnown();
    const queues = queue ? [queue] : this.knownQueues();
    const lists = await Promise.all(
      queues.map(async (name) => {
        const depth = await this.options.deadLetters.depth(`${name}.dlq`).catch(() => undefined);
        if (!depth?.messages) return [];
        return this.options.deadLetters.list(name);
      }),
    );
    return lists.flat();
  }

  act(
    queue: string,
    messageId: string,
    action: DeadLetterAction,
    before?: (summary: DeadLetterSummary) => Promise<void>,
  ): Promise<DeadLetterSummary | null> {
    return this.options.deadLetters.act(queue, messageId, action, before);
  }
}
