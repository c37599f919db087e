/**
 * Bulk seeding of room reservations (benchmarks, tests): an active reservation as `create` leaves it
 * (with the slot locks of its dates still ahead, created with it), a released one as `release` leaves
 * it (in `released_reservations`, the active document gone), through the service's models in
 * unordered batches, events already published unless said otherwise; and the locks of requests that
 * died halfway. Nothing here is used by the running service.
 */
import { Types } from 'mongoose';
import { roomReservationReserved } from '@crm/contracts';
import { BULK_INSERT_BATCH, createEnvelope, insertPublished, withOutbox } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import { reservationSnapshot } from '../domain/reservation.service';
import { slotKey, type ReservationModels } from './reservation.model';

export interface SeedReservation {
  /** 24 hex digits. */
  id: string;
  room: string;
  doctor: { id: string; name?: string };
  dates: Date[];
  createdAt: Date;
  /** Released at (absent: active). */
  releasedAt?: Date;
}

const documentOf = (r: SeedReservation) => ({
  _id: new Types.ObjectId(r.id),
  room: r.room,
  doctor: r.doctor,
  dates: r.dates,
  createdAt: r.createdAt,
  updatedAt: r.releasedAt ?? r.createdAt,
});

/** The slot locks `create` takes for a reservation (one per slot), those still ahead of `now`. */
const locksOf = (r: Pick<SeedReservation, 'id' | 'room' | 'dates' | 'createdAt'>, now: Date) =>
  r.dates
    .filter((date) => date > now)
    .map((date) => ({
      _id: slotKey(r.room, date),
      reservationId: r.id,
      room: r.room,
      date,
      createdAt: r.createdAt,
    }));

export async function seedReservations(
  models: ReservationModels,
  reservations: readonly SeedReservation[],
  now = new Date(),
  batchSize?: number,
): Promise<{ active: number; released: number; locks: number }> {
  const active = reservations.filter((r) => !r.releasedAt);
  const released = reservations.filter((r) => r.releasedAt);
  const locks = active.flatMap((r) => locksOf(r, now));
  return {
    active: await insertPublished(
      models.Reservation,
      active.map((r) => ({ ...documentOf(r), status: 'active' })),
      batchSize,
    ),
    released: await insertPublished(
      models.ReleasedReservation,
      released.map((r) => ({ ...documentOf(r), status: 'released', releasedAt: r.releasedAt })),
      batchSize,
    ),
    locks: await insertPublished(models.SlotLock, locks, batchSize),
  };
}

/**
 * Reservations just made whose `rooms.reservation.reserved.v1` events the relay has not published yet
 * (its backlog after a broker outage): the active document as `create` inserts it, its event (the
 * service's own payload, `reservationSnapshot`) in its outbox, and its slot locks.
 */
export async function seedUnpublishedReservations(
  models: ReservationModels,
  reservations: readonly Omit<SeedReservation, 'releasedAt'>[],
  now = new Date(),
  batchSize = BULK_INSERT_BATCH,
): Promise<{ active: number; locks: number }> {
  const documents = reservations.map((r) =>
    withOutbox(
      { ...documentOf(r), status: 'active' as const },
      createEnvelope(
        roomReservationReserved,
        reservationSnapshot(r.id, r.room, r.doctor.id, r.dates),
        correlationIdOrNew(),
      ),
    ),
  );
  for (let i = 0; i < documents.length; i += batchSize)
    await models.Reservation.insertMany(documents.slice(i, i + batchSize), { ordered: false });
  return {
    active: documents.length,
    locks: await insertPublished(
      models.SlotLock,
      reservations.flatMap((r) => locksOf(r, now)),
      batchSize,
    ),
  };
}

/**
 * The slot locks of reservation requests that died after taking them and before storing their
 * reservation (`SlotLocks.acquireAll`'s documents, no reservation behind them): what the orphan-lock
 * sweep frees once they are older than its grace period.
 */
export function seedAbandonedLocks(
  models: ReservationModels,
  requests: readonly Pick<SeedReservation, 'id' | 'room' | 'dates' | 'createdAt'>[],
  now = new Date(),
  batchSize?: number,
): Promise<number> {
  return insertPublished(
    models.SlotLock,
    requests.flatMap((r) => locksOf(r, now)),
    batchSize,
  );
}
