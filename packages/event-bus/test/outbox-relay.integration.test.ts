import { spawn } from 'node:child_process';
import path from 'node:path';
import mongoose from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import {
  createEnvelope,
  EventPublisher,
  OUTBOX_REJECTED_FIELD,
  OutboxRelay,
  withOutbox,
  withOutboxUpdate,
  type EnvelopePublisher,
} from '../src';
import { eventually, sleep } from '@crm/testing/src/polling';
import { uniqueName } from '@crm/testing/src/names';
import { MONGO_URL, recordingLogger, thingHappened } from './support/test-infra';
import { startThingBus, type ThingBus } from './support/thing-bus';
import { thingModel, type Thing } from './support/thing.model';

jest.setTimeout(45_000);

const repoRoot = path.resolve(__dirname, '../../..');
const exchange = uniqueName('test.outbox.events');
const queue = uniqueName('test.outbox.consumer');
const dbName = uniqueName('event_bus_outbox');

const logger = recordingLogger();
let publisher: EventPublisher;
let db: mongoose.Connection;
let Things: mongoose.Model<Thing>;
/** Every event the consumer's handler ran for, in order; "exactly once" is checked against it. */
const consumed: EventEnvelope[] = [];
const relays: OutboxRelay[] = [];
let bus: ThingBus;

beforeAll(async () => {
  db = await mongoose.createConnection(MONGO_URL, { dbName }).asPromise();
  Things = thingModel(db);
  bus = await startThingBus({ exchange, queue, db, logger, consumed });
  ({ publisher } = bus);
}, 60_000);

afterAll(async () => {
  await Promise.all(relays.map((relay) => relay.stop()));
  await bus?.stop();
});

function relay(options: Partial<ConstructorParameters<typeof OutboxRelay>[0]> = {}): OutboxRelay {
  const created = new OutboxRelay({ publisher, sources: [Things], intervalMs: 200, logger, ...options });
  relays.push(created);
  return created;
}

/** Raw stored outbox (the plugin hides it from normal queries). */
async function storedOutbox(id: string): Promise<unknown[] | undefined> {
  const raw = await db.collection(Things.collection.collectionName).findOne({ _id: id as never });
  return raw?.outbox as unknown[] | undefined;
}

/** A document as the relay sees it, outbox fields included. */
type RawThing = {
  _id: string;
  outbox?: unknown[];
  outboxPending?: boolean;
  [OUTBOX_REJECTED_FIELD]?: unknown[];
};

const consumedCount = (eventId: string): number => consumed.filter((e) => e.id === eventId).length;

function runFixture(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', script], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('OutboxRelay', () => {
  it('delivers, exactly once, an event whose writer was killed between the write and the publish, and removes the outbox entry', async () => {
    const thingId = uniqueName('thing-crash');
    const fixture = path.join(__dirname, 'fixtures', 'write-then-crash.fixture.ts');

    const exit = await runFixture(fixture, { MONGO_URL, DB_NAME: dbName, THING_ID: thingId });

    // npx/tsx run the script in a child node process and report its SIGKILL as exit code 137.
    expect(exit.signal === 'SIGKILL' || exit.code === 128 + 9).toBe(true);
    expect(exit.stderr.split('\n').filter((line) => line && !line.startsWith('npm warn'))).toEqual([]);
    const pending = (await storedOutbox(thingId)) as EventEnvelope[];
    expect(pending).toHaveLength(1);
    const eventId = pending[0]!.id;
    expect(consumedCount(eventId)).toBe(0); // nobody published it: the writer died first

    relay().start();

    await eventually(() => consumedCount(eventId) === 1, 15_000, 'the event to be consumed');
    await eventually(
      async () => (await storedOutbox(thingId)) === undefined,
      15_000,
      'the outbox entry to be removed',
      { retryOnError: true },
    );
    await sleep(1_000); // five more relay polls: nothing is published again
    expect(consumedCount(eventId)).toBe(1);
    const [event] = consumed.filter((e) => e.id === eventId);
    expect(event).toEqual({ ...pending[0], data: { thingId, n: 7 } });
    expect(event!.correlationId).toBe('crash-fixture');
  });

  it('publishes an event stored by an update as soon as the writer kicks the relay', async () => {
    const thingId = uniqueName('thing-kick');
    await Things.create({ _id: thingId, name: 'kick me' });
    const running = relay({ intervalMs: 60_000 }).start(); // the poll will not fire during this test
    await sleep(300); // let the start-up pass finish with nothing to do

    const event = createEnvelope(thingHappened, { thingId, n: 8 }, 'kick-test');
    const writtenAt = Date.now();
    await Things.updateOne({ _id: thingId }, withOutboxUpdate({ $set: { status: 'changed' } }, event));
    running.kick();

    await eventually(() => consumedCount(event.id) === 1, 5_000, 'the kicked event to be consumed', {
      intervalMs: 10,
    });
    const latencyMs = Date.now() - writtenAt;
    expect(latencyMs).toBeLessThan(2_000);
    const stored = await Things.findById(thingId).lean();
    expect(stored?.status).toBe('changed'); // the change and the event were one write
    await eventually(
      async () => (await storedOutbox(thingId)) === undefined,
      15_000,
      'the outbox entry to be removed',
      { retryOnError: true },
    );
  });

  it('keeps retrying while it cannot publish, logs the outage once, and publishes when the broker is back', async () => {
    const outageLogger = recordingLogger();
    let brokerUp = false;
    const published: EventEnvelope[] = [];
    const flakyPublisher: EnvelopePublisher = {
      publishEnvelope: async (envelope) => {
        if (!brokerUp) throw new Error('connect ECONNREFUSED 127.0.0.1:5672');
        published.push(envelope);
      },
    };
    const thingId = uniqueName('thing-outage');
    const event = createEnvelope(thingHappened, { thingId, n: 9 }, 'outage-test');
    const Others = db.collection<RawThing>(uniqueName('outage_things'));
    await Others.insertOne(withOutbox({ _id: thingId }, event));

    const running = relay({
      publisher: flakyPublisher,
      sources: [Others],
      intervalMs: 50,
      logger: outageLogger,
    }).start();
    await eventually(
      () => outageLogger.find('outbox relay pass failed again').length >= 5,
      15_000,
      'several failed passes',
    );
    brokerUp = true;
    await eventually(() => published.length === 1, 15_000, 'the event to be published');
    await running.stop();

    expect(outageLogger.find('outbox relay cannot publish; retrying until it can')).toHaveLength(1);
    expect(outageLogger.find('outbox relay publishing again')).toHaveLength(1);
    expect(published.map((e) => e.id)).toEqual([event.id]);
    // Entries and pending flag gone in one write.
    expect(await Others.findOne({ _id: thingId })).toEqual({ _id: thingId });
  });

  it('never runs two passes over a collection at once in one process, so each event is published once', async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    const published: string[] = [];
    const slowPublisher: EnvelopePublisher = {
      publishEnvelope: async (envelope) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await sleep(5);
        published.push(envelope.id);
        concurrent--;
      },
    };
    const collection = db.collection<RawThing>(uniqueName('busy_things'));
    const events = Array.from({ length: 20 }, (_, i) =>
      createEnvelope(thingHappened, { thingId: `t${i}`, n: i }, 'lock-test'),
    );
    await collection.insertMany(events.map((event, i) => withOutbox({ _id: `t${i}` }, event)));

    // Two relays (e.g. two modules of one service) over the same collection, kicked together.
    const first = relay({ publisher: slowPublisher, sources: [collection], batchSize: 7 });
    const second = relay({ publisher: slowPublisher, sources: [collection], batchSize: 7 });
    await Promise.all([first.runOnce(), second.runOnce(), first.runOnce(), second.runOnce()]);

    expect(maxConcurrent).toBe(1);
    expect([...published].sort()).toEqual(events.map((e) => e.id).sort());
    expect(await collection.countDocuments({ 'outbox.0': { $exists: true } })).toBe(0);
  });

  it('moves an entry that is not a valid envelope aside instead of retrying it forever', async () => {
    const published: string[] = [];
    const collection = db.collection<RawThing>(uniqueName('odd_things'));
    const good = createEnvelope(thingHappened, { thingId: 'ok', n: 1 }, 'c');
    const bad = { id: 'not-a-uuid', name: 'Nope' };
    await collection.insertOne({ _id: 'odd', outbox: [bad, good] });

    await relay({
      publisher: { publishEnvelope: async (e) => void published.push(e.id) },
      sources: [collection],
    }).runOnce();

    expect(published).toEqual([good.id]);
    expect(await collection.findOne({ _id: 'odd' })).toEqual({ _id: 'odd', [OUTBOX_REJECTED_FIELD]: [bad] });
  });

  it('finds pending documents by their flag (indexed), reading every document only in its first pass', async () => {
    const published: string[] = [];
    const collection = db.collection<RawThing>(uniqueName('flagged_things'));
    const publisher: EnvelopePublisher = { publishEnvelope: async (e) => void published.push(e.id) };
    const unflagged = () => createEnvelope(thingHappened, { thingId: 'old', n: 1 }, 'c');
    const before = unflagged();
    await collection.insertOne({ _id: 'before', outbox: [before] }); // as written before the flag
    const running = relay({ publisher, sources: [collection] });
    await running.runOnce();
    expect(published).toEqual([before.id]);
    expect((await collection.indexes()).map((index) => Object.keys(index.key))).toContainEqual([
      'outboxPending',
    ]);

    const after = unflagged();
    await collection.insertOne({ _id: 'after', outbox: [after] });
    const flagged = createEnvelope(thingHappened, { thingId: 'new', n: 2 }, 'c');
    await collection.insertOne(withOutbox({ _id: 'flagged' }, flagged));
    await running.runOnce();
    expect(published).toEqual([before.id, flagged.id]); // the unflagged one is not looked for…
    await relay({ publisher, sources: [collection] }).runOnce();
    expect(published).toEqual([before.id, flagged.id, after.id]); // …until a relay starts again
    expect(await collection.countDocuments({ outboxPending: true })).toBe(0);
  });

  it('keeps an entry added while the document was being published, and its flag, for the next pass', async () => {
    const collection = db.collection<RawThing>(uniqueName('growing_things'));
    const first = createEnvelope(thingHappened, { thingId: 'g', n: 1 }, 'c');
    const second = createEnvelope(thingHappened, { thingId: 'g', n: 2 }, 'c');
    await collection.insertOne(withOutbox({ _id: 'g' }, first));
    const published: string[] = [];
    const running = relay({
      sources: [collection],
      publisher: {
        publishEnvelope: async (envelope) => {
          published.push(envelope.id);
          // A write lands between the relay's read and its removal.
          if (envelope.id === first.id)
            await collection.updateOne({ _id: 'g' }, withOutboxUpdate({}, second));
        },
      },
    });
    await running.runOnce();
    expect(published).toEqual([first.id]);
    expect(await collection.findOne({ _id: 'g' })).toEqual({
      _id: 'g',
      outbox: [second],
      outboxPending: true,
    });
    await running.runOnce();
    expect(published).toEqual([first.id, second.id]);
    expect(await collection.findOne({ _id: 'g' })).toEqual({ _id: 'g' });
  });
});
