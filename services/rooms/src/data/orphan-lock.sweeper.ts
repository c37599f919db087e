import { Types } from 'mongoose';
import type { Logger } from '@crm/server-kit';
import { inBatches } from '@crm/server-kit/service';
import type { ReservationModels, SlotLockDocument } from './reservation.model';

const BATCH_SIZE = 500;

export interface SweeperOptions {
  /** Locks younger than this are never touched: their request may still be writing its reservation. */
  graceMs: number;
  intervalMs: number;
}

/**
 * Frees slots whose lock no active reservation stands behind: left by a request that died (or lost
 * the database) between taking its locks and storing its reservation, or by a release whose clean-up
 * (deleting the active document, then the locks) failed. Runs at start-up and then periodically on every replica; running twice is harmless.
 */
export class OrphanLockSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly models: ReservationModels,
    private readonly logger: Logger,
    private readonly options: SweeperOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = async () => {
      try {
        await this.sweep();
      } catch (error) {
        this.logger.warn({ err: (error as Error).message }, 'slot lock sweep failed; retrying later');
      }
      if (this.stopped) return;
      // The next pass is timed from the end of this one, so passes never overlap.
      this.timer = setTimeout(() => (this.running = tick()), this.options.intervalMs);
      this.timer.unref();
    };
    this.running = tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One pass; answers how many locks it removed. */
  async sweep(now = new Date()): Promise<number> {
    const { SlotLock } = this.models;
    // A slot that has passed cannot be reserved any more, so its lock protects nothing.
    let removed = (await SlotLock.deleteMany({ date: { $lt: now } })).deletedCount;
    const cutoff = new Date(now.getTime() - this.options.graceMs);
    for (let after = ''; ;) {
      const batch = await SlotLock.find(
        { _id: { $gt: after }, date: { $gte: now }, createdAt: { $lt: cutoff } },
        { reservationId: 1 },
      )
        .sort({ _id: 1 })
        .limit(BATCH_SIZE)
        .lean<Array<Pick<SlotLockDocument, '_id' | 'reservationId'>>>();
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!._id;
      removed += await this.removeOrphans(
        batch.map((lock) => lock.reservationId),
        cutoff,
      );
      if (batch.length < BATCH_SIZE) break;
    }
    if (removed > 0) this.logger.info({ removed }, 'slot locks without an active reservation removed');
    return removed;
  }

  private async removeOrphans(reservationIds: string[], cutoff: Date): Promise<number> {
    const ids = [...new Set(reservationIds)];
    const objectIds = ids.filter((id) => Types.ObjectId.isValid(id));
    // One `_id` equality each, not `$in`: FerretDB hands only equalities to PostgreSQL, and an `$in`
    // decoded every reservation ever kept (five years of them) on every pass.
    const [isActive, isReleased] = await Promise.all([
      inBatches(objectIds, (_id) => this.models.Reservation.exists({ _id, status: 'active' })),
      inBatches(objectIds, (_id) => this.models.ReleasedReservation.exists({ _id })),
    ]);
    const releasedIds = objectIds.filter((_, i) => isReleased[i]);
    // Finishes releases that stopped between storing the released copy and deleting the active one.
    if (releasedIds.length > 0) await this.models.Reservation.deleteMany({ _id: { $in: releasedIds } });
    const alive = new Set(objectIds.filter((_, i) => isActive[i] && !isReleased[i]));
    const orphans = ids.filter((id) => !alive.has(id));
    if (orphans.length === 0) return 0;
    // Only locks past the grace period, like the ones examined.
    const result = await this.models.SlotLock.deleteMany({
      reservationId: { $in: orphans },
      createdAt: { $lt: cutoff },
    });
    return result.deletedCount;
  }
}
