import { isDuplicateKey } from '@crm/server-kit';
import { UPDATES_PER_COMMAND } from '@crm/server-kit/service';
import { dayFiguresOf, type DayFigures } from '../domain/day-figures';
import { COUNTERS, isNewerRecord, UNKNOWN_DAY, type Fact } from '../domain/facts';
import type { DayTotals } from '../domain/summary';
import type { FactStore } from '../domain/reporting.service';
import type { ReportingModels } from './reporting.models';

type StoredFact = Fact & { storedAt: Date; storedDay?: string };

/** The UTC day (YYYY-MM-DD) of an instant: the day a fact was stored on. */
const utcDay = (instant: Date | number) => new Date(instant).toISOString().slice(0, 10);

/** How a fact is stored: with when (and which UTC day) this service stored it. */
const asStored = (fact: Fact, storedAt: Date) => ({ ...fact, storedAt, storedDay: utcDay(storedAt) });
type StoredDay = Omit<DayTotals, 'day' | 'revenueByCertificate'> & {
  _id: string;
  computedAt?: Date;
  revenueByCertificate: Array<{ type: string; revenue: number }>;
};

/** What the pending figure reads of a fact. */
const PENDING_PROJECTION = { kind: 1, appointmentId: 1, priceCents: 1, cents: 1 };
/** What a day's totals read of its facts: the pending figure's fields and the counts. */
const DAY_PROJECTION = { ...PENDING_PROJECTION, counts: 1 };

/** Facts inserted together at most, and how long a fact waits for others. */
const BATCH = 200;
const BATCH_WAIT_MS = 10;
/** Days of storing the reconciliation reads one by one; over that, it reads the range. */
const STORED_DAYS_READ_ONE_BY_ONE = 31;
/** Facts inserted in one command when a history is loaded. */
const HISTORY_INSERT_BATCH = 5_000;

/** A day's stored figures in a comparable form (counters in one order, no timestamps). */
function normalized(doc: Partial<DayFigures>): unknown[] {
  return [
    ...COUNTERS.map((name) => Number(doc[name] ?? 0)),
    doc.currency ?? null,
    (doc.revenueByCertificate ?? []).map((c) => [c.type, c.revenue]),
    (doc.money ?? []).map((m) => [m.currency, m.flow, m.method, m.cents]),
    Number(doc.pendingCents ?? 0),
  ];
}

/**
 * Facts and day totals in MongoDB / FerretDB 1.24: inserts under the `_id` unique key, a replace of a
 * record fact guarded by its stored revision, and a day's totals summed from its facts, read with
 * equalities (checked by test/reporting.api.test.ts).
 */
export class MongoFactStore implements FactStore {
  constructor(private readonly models: ReportingModels) {}

  private pending: Array<{
    fact: Fact;
    resolve: (inserted: boolean) => void;
    reject: (error: Error) => void;
  }> = [];
  private flushTimer: NodeJS.Timeout | undefined;

  /**
   * Stores a fact; false when an equal or newer copy is stored already. Facts arriving together
   * (the feed handles up to `prefetch` events at once) are inserted in one unordered `insertMany`:
   * each duplicate is reported on its own, the others are stored.
   */
  async put(fact: Fact): Promise<boolean> {
    const inserted = await new Promise<boolean>((resolve, reject) => {
      this.pending.push({ fact, resolve, reject });
      if (this.pending.length >= BATCH) void this.insertPending();
      else this.flushTimer ??= setTimeout(() => void this.insertPending(), BATCH_WAIT_MS);
    });
    if (inserted || fact.kind !== 'record') return inserted;
    return this.replaceIfNewer(fact);
  }

  private async insertPending(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    const batch = this.pending.splice(0, BATCH);
    if (this.pending.length > 0) this.flushTimer = setTimeout(() => void this.insertPending(), 0);
    if (batch.length === 0) return;
    const storedAt = new Date();
    const duplicates = new Set<number>();
    const failed = new Map<number, Error>();
    try {
      await this.models.Fact.collection.insertMany(
        batch.map(({ fact }) => asStored(fact, storedAt)) as never[],
        { ordered: false },
      );
    } catch (error) {
      const writeErrors = (error as { writeErrors?: Array<{ index: number; err?: unknown }> }).writeErrors;
      if (!Array.isArray(writeErrors)) {
        for (const { reject } of batch) reject(error as Error);
        return;
      }
      for (const writeError of writeErrors) {
        if (isDuplicateKey(writeError) || isDuplicateKey(writeError.err)) duplicates.add(writeError.index);
        else failed.set(writeError.index, error as Error);
      }
    }
    batch.forEach(({ resolve, reject }, index) => {
      const failure = failed.get(index);
      if (failure) reject(failure);
      else resolve(!duplicates.has(index));
    });
  }

  private async replaceIfNewer(fact: Fact): Promise<boolean> {
    const stored = await this.models.Fact.collection.findOne<StoredFact>({ _id: fact._id as never });
    if (!stored || !isNewerRecord(fact, stored)) return false;
    // Guarded by what was read: if another copy replaced it meanwhile, this one changes nothing.
    const replaced = await this.models.Fact.collection.replaceOne(
      { _id: fact._id as never, revision: stored.revision ?? null, occurredAt: stored.occurredAt },
      asStored(fact, new Date()),
    );
    return replaced.modifiedCount > 0;
  }

  /**
   * Stores many facts at once, skipping those stored already (an unordered insert): for loading a
   * history (the benchmark) — the event feed stores one fact at a time with `put`. Each is stored as
   * a centre's feed would have stored it, when it occurred: a running service's reconciliation (the
   * days of the facts stored since its last run) then does not take five years of history for new.
   */
  async putMany(facts: readonly Fact[]): Promise<void> {
    if (facts.length === 0) return;
    try {
      await this.models.Fact.collection.insertMany(
        facts.map((fact) => asStored(fact, fact.occurredAt)) as never[],
        { ordered: false },
      );
    } catch (error) {
      const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
      if (
        !Array.isArray(writeErrors) ||
        !writeErrors.every((e) => isDuplicateKey(e) || isDuplicateKey((e as { err?: unknown }).err))
      )
        throw error;
    }
  }

  async appointmentInstant(appointmentId: string): Promise<Date | undefined> {
    const booked = await this.models.Fact.collection.findOne<StoredFact>(
      { _id: `${appointmentId}:booked` as never },
      { projection: { at: 1 } },
    );
    return booked?.at;
  }

  /**
   * Stores a history of facts (`putMany`) and the totals of their days, summed from the given facts
   * in this process: for loading a history that is whole for its days (the benchmark's stages
   * never share a day) — `recompute` reads each day back from the collection, a day at a time.
   */
  async loadHistory(facts: readonly Fact[], fallbackPriceCents: number): Promise<void> {
    for (let i = 0; i < facts.length; i += HISTORY_INSERT_BATCH)
      await this.putMany(facts.slice(i, i + HISTORY_INSERT_BATCH));
    const byDay = new Map<string, Fact[]>();
    const moneyByAppointmentDay = new Map<string, Fact[]>();
    const add = (groups: Map<string, Fact[]>, day: string, fact: Fact) => {
      const group = groups.get(day);
      if (group) group.push(fact);
      else groups.set(day, [fact]);
    };
    for (const fact of facts) {
      add(byDay, fact.day, fact);
      if (fact.appointmentDay && fact.appointmentDay !== UNKNOWN_DAY)
        add(moneyByAppointmentDay, fact.appointmentDay, fact);
    }
    const days = new Set([...byDay.keys(), ...moneyByAppointmentDay.keys()]);
    await this.storeDays(
      new Map(
        [...days].map((day) => [
          day,
          dayFiguresOf(byDay.get(day) ?? [], moneyByAppointmentDay.get(day) ?? [], fallbackPriceCents),
        ]),
      ),
    );
  }

  /**
   * Recomputes and stores the totals of these days from their facts: per day, two equality reads
   * (the day's facts, and the money facts of its appointments), summed here (domain/day-figures.ts).
   * (FerretDB 1.24 pushes an equality down to PostgreSQL but not `$in`, and its `$group` sums only
   * the first accumulator and drops fields of a compound key: summing in the service needs neither.)
   */
  async recompute(days: readonly string[], fallbackPriceCents: number): Promise<void> {
    if (days.length === 0) return;
    // Money whose appointment's day was unknown when it was stored (its booking came later): few,
    // read once per recomputation and given their day here when it is one of these.
    const orphans = await this.models.Fact.collection
      .find<StoredFact>({ appointmentDay: UNKNOWN_DAY }, { projection: PENDING_PROJECTION })
      .toArray();
    const figures = new Map<string, DayFigures>();
    const queue = [...days];
    const worker = async () => {
      for (let day = queue.shift(); day !== undefined; day = queue.shift()) {
        const [dayFacts, money] = await Promise.all([
          this.models.Fact.collection.find<StoredFact>({ day }, { projection: DAY_PROJECTION }).toArray(),
          this.models.Fact.collection
            .find<StoredFact>({ appointmentDay: day }, { projection: PENDING_PROJECTION })
            .toArray(),
        ]);
        const adopted = await this.adoptOrphans(day, dayFacts, orphans);
        figures.set(day, dayFiguresOf(dayFacts, [...money, ...adopted], fallbackPriceCents));
      }
    };
    await Promise.all(Array.from({ length: Math.min(4, days.length) }, worker));
    await this.storeDays(figures);
  }

  /** Writes these days' figures, only those that changed. */
  private async storeDays(figures: ReadonlyMap<string, DayFigures>): Promise<void> {
    const stored = await this.models.Day.collection
      .find<StoredDay>({ _id: { $in: [...figures.keys()] } as never })
      .toArray();
    const before = new Map(
      stored.map(({ _id, computedAt: _computedAt, ...rest }) => [_id, JSON.stringify(normalized(rest))]),
    );
    const computedAt = new Date();
    const writes = [...figures]
      .filter(([day, doc]) => before.get(day) !== JSON.stringify(normalized(doc)))
      .map(([day, doc]) => ({
        replaceOne: { filter: { _id: day as never }, replacement: { ...doc, computedAt }, upsert: true },
      }));
    // In slices of `UPDATES_PER_COMMAND` (FerretDB 1.24 stalls on larger update commands).
    for (let i = 0; i < writes.length; i += UPDATES_PER_COMMAND) {
      const slice = writes.slice(i, i + UPDATES_PER_COMMAND);
      try {
        await this.models.Day.collection.bulkWrite(slice, { ordered: false });
      } catch (error) {
        // Another recompute of one of these days (the consumer, a reconcile, another replica)
        // inserted it between our read and our upsert: once more, the replace now finds it.
        if (!isDuplicateKey(error)) throw error;
        await this.models.Day.collection.bulkWrite(slice, { ordered: false });
      }
    }
  }

  /**
   * The orphans (money stored before its booking was heard of) that belong to this day's booked
   * appointments: given their appointment's day now that it is known, and counted with the day.
   */
  private async adoptOrphans(day: string, dayFacts: readonly StoredFact[], orphans: readonly StoredFact[]) {
    const booked = new Set(dayFacts.filter((f) => f.kind === 'booked').map((f) => f.appointmentId));
    const adopted = orphans.filter((f) => booked.has(f.appointmentId));
    if (adopted.length > 0)
      await this.models.Fact.collection.updateMany(
        { _id: { $in: adopted.map((f) => f._id) } as never, appointmentDay: UNKNOWN_DAY },
        { $set: { appointmentDay: day } },
      );
    return adopted;
  }

  /** When the reconciliation last looked at facts (kept in `meta`, so a restart resumes from it). */
  async reconciledUntil(): Promise<Date | undefined> {
    const doc = await this.models.Fact.db
      .collection<{ _id: string; until: Date }>('meta')
      .findOne({ _id: 'reconcile' });
    return doc?.until;
  }

  async setReconciledUntil(until: Date): Promise<void> {
    await this.models.Fact.db
      .collection<{ _id: string; until: Date }>('meta')
      .replaceOne({ _id: 'reconcile' }, { until }, { upsert: true });
  }

  /**
   * The days of the facts stored since then: one equality read per UTC day of storing (usually
   * one or two), the rest of the condition applied here. A longer span (the first run, or after
   * weeks down) reads the range instead, once.
   */
  async daysStoredSince(since: Date, now = new Date()): Promise<string[]> {
    const storedDays: string[] = [];
    for (let day = Date.parse(utcDay(since)); day <= now.getTime(); day += 86_400_000)
      storedDays.push(utcDay(day));
    const projection = { day: 1, appointmentDay: 1, storedAt: 1 };
    const facts =
      storedDays.length > STORED_DAYS_READ_ONE_BY_ONE
        ? await this.models.Fact.collection
            .find<StoredFact>({ storedAt: { $gte: since } }, { projection })
            .toArray()
        : (
            await Promise.all(
              storedDays.map((storedDay) =>
                this.models.Fact.collection.find<StoredFact>({ storedDay }, { projection }).toArray(),
              ),
            )
          )
            .flat()
            .filter((fact) => fact.storedAt >= since);
    const days = new Set(facts.flatMap((fact) => [fact.day, fact.appointmentDay]));
    return [...days].filter((day): day is string => day !== undefined && day !== UNKNOWN_DAY);
  }

  async totals(from: string, to: string): Promise<DayTotals[]> {
    const docs = await this.models.Day.collection
      .find<StoredDay>({ _id: { $gte: from, $lte: to } as never })
      .toArray();
    return docs.map(({ _id, revenueByCertificate, money, pendingCents, ...rest }) => ({
      ...(rest as unknown as DayTotals),
      day: _id,
      money: money ?? [],
      pendingCents: pendingCents ?? 0,
      revenueByCertificate: Object.fromEntries(revenueByCertificate.map((c) => [c.type, c.revenue])),
    }));
  }
}
