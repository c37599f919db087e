/**
 * The package's entry points. `@crm/event-bus/amqp` is what a process without a database (the
 * gateway) imports, so it must not load mongoose or the MongoDB driver; `@crm/event-bus/outbox`
 * is the MongoDB side; the root keeps exporting everything it always did.
 */
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import * as everything from '@crm/event-bus';
import * as transport from '@crm/event-bus/amqp';
import * as outbox from '@crm/event-bus/outbox';
import { modulesLoadedBy } from '@crm/testing/src/loaded-modules';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const MONGO_MODULE = /[\\/]node_modules[\\/](mongoose|mongodb|bson)[\\/]/;

/** Third-party imports left in a bundle made the way scripts/build-deployable.ts makes one (esbuild). */
async function externalImportsOfBundle(specifier: string): Promise<string[]> {
  const thirdPartyExternal: Plugin = {
    name: 'third-party-external',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('@crm/') ? undefined : { path: args.path, external: true },
      );
    },
  };
  const result = await build({
    stdin: { contents: `export * from ${JSON.stringify(specifier)};`, resolveDir: REPO_ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    metafile: true,
    plugins: [thirdPartyExternal],
    logLevel: 'silent',
  });
  const imports = Object.values(result.metafile.outputs).flatMap((output) => output.imports);
  return [...new Set(imports.filter((i) => i.external).map((i) => i.path))].sort();
}

describe('@crm/event-bus/amqp', () => {
  it('loads amqplib but neither mongoose nor the MongoDB driver in a fresh process', () => {
    const modules = modulesLoadedBy('@crm/event-bus/amqp');
    expect(modules.some((file) => /[\\/]node_modules[\\/]amqplib[\\/]/.test(file))).toBe(true);
    expect(modules.some((file) => file.includes(path.join('event-bus', 'src', 'amqp')))).toBe(true);
    expect(modules.filter((file) => MONGO_MODULE.test(file))).toEqual([]);
  });

  it('bundles for a container without importing mongoose', async () => {
    const imports = await externalImportsOfBundle('@crm/event-bus/amqp');
    expect(imports).toContain('amqplib');
    expect(imports.filter((name) => /mongo|bson/.test(name))).toEqual([]);
  });

  it('holds the transport: connection, publisher, consumer, envelope, store interface', () => {
    for (const name of ['AmqpConnection', 'EventPublisher', 'EventConsumer', 'on', 'createEnvelope'])
      expect(transport).toHaveProperty(name);
    for (const name of ['InMemoryProcessedEventStore', 'SingleLane', 'backoffDelay', 'DEFAULT_EXCHANGE'])
      expect(transport).toHaveProperty(name);
    for (const name of ['outboxPlugin', 'OutboxRelay', 'MongoProcessedEventStore', 'createServiceBus'])
      expect(transport).not.toHaveProperty(name);
  });
});

describe('@crm/event-bus/outbox', () => {
  it('is the entry that loads mongoose (so the check above would notice it)', () => {
    expect(modulesLoadedBy('@crm/event-bus/outbox').filter((file) => MONGO_MODULE.test(file))).not.toEqual(
      [],
    );
  });

  it('holds the MongoDB side and nothing of the transport', () => {
    expect(Object.keys(outbox).sort()).toEqual(
      [
        'DEFAULT_PROCESSED_EVENTS_COLLECTION',
        'MongoProcessedEventStore',
        'OUTBOX_FIELD',
        'OUTBOX_REJECTED_FIELD',
        'OutboxRelay',
        'createServiceBus',
        'isDuplicateKeyError',
        'oldestOutboxEntryAgeSeconds',
        'outboxBacklog',
        'outboxPlugin',
        'pushOutbox',
        'withOutbox',
        'withOutboxUpdate',
        // Bulk seeding (benchmarks, tests): documents inserted with their events already published.
        'BULK_INSERT_BATCH',
        'insertPublished',
        // …and what a test leaves out when it compares such a document with one the service wrote.
        'OUTBOX_FIELDS',
      ].sort(),
    );
  });
});

describe('@crm/event-bus', () => {
  it('still exports everything it exported before the split, from both entries', () => {
    // prettier-ignore
    const before = [
      'AmqpConnection', 'ConnectionClosedError', 'ConnectionTimeoutError', 'assertEnvelope',
      'createEnvelope', 'describeIssues', 'EventValidationError', 'EventPublisher',
      'PublisherClosedError', 'PublishTimeoutError', 'EventConsumer', 'on', 'Subscription',
      'OUTBOX_FIELD', 'OUTBOX_REJECTED_FIELD', 'outboxPlugin', 'pushOutbox', 'withOutbox',
      'withOutboxUpdate', 'OutboxRelay', 'DEFAULT_PROCESSED_EVENTS_COLLECTION',
      'InMemoryProcessedEventStore', 'isDuplicateKeyError', 'MongoProcessedEventStore',
      'processedEventKey', 'attemptFromHeaders', 'backoffDelay', 'DEFAULT_RETRY_DELAYS_MS',
      'retryDelayFor', 'assertConsumerQueues', 'assertEventExchange', 'deadLetterQueueName',
      'DEFAULT_EXCHANGE', 'retryQueueName', 'SingleLane', 'silentLogger', 'createServiceBus',
    ];
    // Added since, for least privilege on the broker: the sender's identity and the copies exchange.
    const since = [
      'brokerUserOf',
      'copiesExchangeName',
      'COPY_ROUTES',
      'ensureEventExchange',
      'PUBLISHED_BY_HEADER',
      // Metrics: the bus's counters hook (no-op by default) and the outbox lag.
      'noEventBusMetrics',
      'oldestOutboxEntryAgeSeconds',
      'outboxBacklog',
      // Dead letters read and acted on without losing them ("Estado del sistema").
      'DeadLetterBox',
      'summariseDeadLetter',
      // Bulk seeding with events already published (bench:growth and the services' seed modules).
      'BULK_INSERT_BATCH',
      'insertPublished',
      'OUTBOX_FIELDS',
      // Traces: the trace context an outbox entry and a message carry.
      'contextFromTraceparent',
      'traceparentOf',
      'TRACEPARENT_HEADER',
    ];
    expect(Object.keys(everything).sort()).toEqual([...before, ...since].sort());
    expect(Object.keys(everything).sort()).toEqual(
      [...Object.keys(transport), ...Object.keys(outbox)].sort(),
    );
    // The same classes, not copies: `instanceof` works whichever entry an importer used.
    expect(everything.AmqpConnection).toBe(transport.AmqpConnection);
    expect(everything.OutboxRelay).toBe(outbox.OutboxRelay);
  });
});
