import { isDuplicateKey } from '@crm/server-kit';
import type { Logger } from '@crm/server-kit';
import { SlotsTakenError } from '../domain/reservation';
import { slotKey, type ReservationModels, type SlotLockDocument } from './reservation.model';

/**
 * Holds room-slots for a reservation, one lock document per slot. Inserting a lock is atomic and
 * the `_id` index refuses a second holder, so the database settles races; a multi-slot request
 * takes its locks one by one and gives back the ones it took when a later one is refused.
 */
export class SlotLocks {
  constructor(
    private readonly models: ReservationModels,
    private readonly logger: Logger,
  ) {}

  /**
   * Takes every slot for `reservationId`, or none: on a refused slot it gives back what it took and
   * throws SlotsTakenError naming every requested slot another reservation holds.
   */
  async acquireAll(reservationId: string, room: string, dates: readonly Date[]): Promise<void> {
    // Same order for every request: two requests over the same slots collide on the first shared
    // one, so one of them wins everything instead of both losing half.
    const wanted = [...dates].sort((a, b) => a.getTime() - b.getTime());
    const taken: string[] = [];
    for (const date of wanted) {
      try {
        await this.models.SlotLock.create({
          _id: slotKey(room, date),
          reservationId,
          room,
          date,
          createdAt: new Date(),
        });
        taken.push(slotKey(room, date));
      } catch (error) {
        await this.giveBack(reservationId, taken);
        if (isDuplicateKey(error))
          throw new SlotsTakenError(await this.heldByOthers(reservationId, room, wanted, date));
        throw error;
      }
    }
  }

  /** Removes this reservation's locks (all of them, or only `keys`). Failures are left to the sweep. */
  async giveBack(reservationId: string, keys?: readonly string[]): Promise<void> {
    if (keys && keys.length === 0) return;
    try {
      await this.models.SlotLock.deleteMany(keys ? { _id: { $in: keys }, reservationId } : { reservationId });
    } catch (error) {
      this.logger.warn(
        { reservationId, err: (error as Error).message },
        'slot locks not released; the sweep will',
      );
    }
  }

  /** The requested slots now held by another reservation; always includes the one that was refused. */
  private async heldByOthers(
    reservationId: string,
    room: string,
    dates: readonly Date[],
    refused: Date,
  ): Promise<Date[]> {
    const keys = dates.map((date) => slotKey(room, date));
    const locks = await this.models.SlotLock.find({
      _id: { $in: keys },
      reservationId: { $ne: reservationId },
    })
      .lean<SlotLockDocument[]>()
      .catch(() => [] as SlotLockDocument[]);
    const times = new Set([refused.getTime(), ...locks.map((lock) => new Date(lock.date).getTime())]);
    return [...times].sort((a, b) => a - b).map((time) => new Date(time));
  }
}
