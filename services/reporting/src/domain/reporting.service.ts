import type { ReportSummary } from '@crm/contracts';
import {
  appointmentFact,
  centreDay,
  moneyFact,
  recordFact,
  type AppointmentEventData,
  type AppointmentFactKind,
  type Fact,
  type MoneyEventData,
  type MoneyFlow,
  type RecordEventData,
} from './facts';
import { summarize, type DayTotals } from './summary';

export interface FactStore {
  /** Stores a fact; false when an equal or newer copy was stored already. */
  put(fact: Fact): Promise<boolean>;
  /** The instant of a booked appointment, when its booked fact is known. */
  appointmentInstant(appointmentId: string): Promise<Date | undefined>;
  /**
   * Recomputes the stored totals of these days from their facts (an appointment whose booked fact
   * has no price owes `fallbackPriceCents`).
   */
  recompute(days: readonly string[], fallbackPriceCents: number): Promise<void>;
  /** Days having a fact stored since then (and the appointments' days of money stored since then). */
  daysStoredSince(since: Date): Promise<string[]>;
  totals(from: string, to: string): Promise<DayTotals[]>;
  /** Where the reconciliation stopped (persisted, so a restart resumes there). */
  reconciledUntil(): Promise<Date | undefined>;
  setReconciledUntil(until: Date): Promise<void>;
}

/** The centre's refund window in hours (config service; 24 when it cannot be read). */
export interface RefundWindowSource {
  hours(): Promise<number>;
}

/** The centre's check-up price in cents (config service; the last read, else the seed's). */
export interface CheckUpPriceSource {
  cents(): Promise<number>;
}

/**
 * The reporting read model: events become facts; the days a fact touched are recomputed from their
 * facts one batch at a time (in this process, one recomputation at a time, so a slower one never
 * overwrites a newer one); the reconciliation recomputes every day with facts stored lately, which
 * repairs what a crash or another replica's concurrent recomputation may have left behind.
 */
export class ReportingService {
  private readonly dirty = new Set<string>();
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastReconcile: Date | undefined;

  constructor(
    private readonly facts: FactStore,
    private readonly refundWindow: RefundWindowSource,
    private readonly price: CheckUpPriceSource,
    private readonly options: { batchDelayMs?: number; onError?: (error: Error) => void } = {},
  ) {}

  async appointmentEvent(kind: AppointmentFactKind, data: AppointmentEventData, occurredAt: string) {
    const hours = kind === 'cancelled' ? await this.refundWindow.hours() : 0;
    // What a booking owes is the price when it was made (a later change of price leaves it).
    const priceCents = kind === 'booked' ? await this.price.cents() : undefined;
    const fact = appointmentFact(kind, data, occurredAt, hours, priceCents);
    await this.facts.put(fact);
    // Also after a duplicate: the first copy may have been stored by a process that died before its day was recomputed.
    this.markDirty(fact.day);
  }

  async recordEvent(data: RecordEventData, occurredAt: string) {
    if (!data.billing) return;
    const appointmentAt = data.billing.appointmentDate
      ? undefined
      : await this.facts.appointmentInstant(data.dateId);
    const fact = recordFact(data, occurredAt, appointmentAt);
    if (!fact) return;
    await this.facts.put(fact);
    this.markDirty(fact.day);
  }

  /**
   * A payment taken or refunded: its cents on the day the money moved, and what is pending on its
   * appointment's day (when the booking is not known yet, its booked fact marks that day later).
   */
  async moneyEvent(flow: MoneyFlow, data: MoneyEventData, movedAt: string, occurredAt: string) {
    const instant = await this.facts.appointmentInstant(data.appointmentId);
    const appointmentDay = instant ? centreDay(instant) : undefined;
    const fact = moneyFact(flow, data, movedAt, occurredAt, appointmentDay);
    await this.facts.put(fact);
    this.markDirty(fact.day);
    if (appointmentDay) this.markDirty(appointmentDay);
  }

  async summary(from: string, to: string): Promise<ReportSummary> {
    const [days, hours] = await Promise.all([this.facts.totals(from, to), this.refundWindow.hours()]);
    return summarize(from, to, days, hours);
  }

  /** Recomputes the days of the facts stored since the previous run (with a margin), then those pending. */
  async reconcile(): Promise<number> {
    const started = new Date();
    this.lastReconcile ??= (await this.facts.reconciledUntil()) ?? new Date(0);
    const since = new Date(this.lastReconcile.getTime() - 60_000);
    const days = await this.facts.daysStoredSince(since);
    for (const day of days) this.dirty.add(day);
    await this.flush();
    this.lastReconcile = started;
    await this.facts.setReconciledUntil(started);
    return days.length;
  }

  /** Resolves once every day marked so far is recomputed (tests, the reconciliation); rejects on a failure. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.dirty.size > 0 || this.running) {
      if (this.running) await this.running.catch(() => undefined);
      else await this.run();
    }
  }

  stop() {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private markDirty(day: string) {
    this.dirty.add(day);
    this.schedule(this.options.batchDelayMs ?? 250);
  }

  private schedule(delayMs: number) {
    if (this.timer || this.running) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.run().catch(() => undefined);
    }, delayMs);
    this.timer.unref?.();
  }

  /** Recomputes up to 400 pending days (a year in one `$group`); on a failure they stay pending (retried a few seconds later). */
  private run(): Promise<void> {
    if (this.running) return this.running;
    const days = [...this.dirty].slice(0, 400);
    for (const day of days) this.dirty.delete(day);
    let failed = false;
    this.running = this.price
      .cents()
      .then((fallbackPriceCents) => this.facts.recompute(days, fallbackPriceCents))
      .catch((error: Error) => {
        failed = true;
        for (const day of days) this.dirty.add(day);
        this.options.onError?.(error);
        throw error;
      })
      .finally(() => {
        this.running = undefined;
        if (this.dirty.size > 0) this.schedule(failed ? 5_000 : (this.options.batchDelayMs ?? 250));
      });
    return this.running;
  }
}
