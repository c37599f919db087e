/**
 * Bulk seeding of room reservations (benchmarks, tests): an active reservation as `create` leaves it
 * (with the slot locks of its dates still ahead, created with it), a released one as `release` leaves
 * it (in `released_reservations`, the active document gone), through the service's models in
 * unordered batches, events already published. Nothing here is used by the running service.
 */
import { Types } from 'mongoose';
import { insertPublished } from '@crm/event-bus';
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

export async function seedReservations(
  models: ReservationModels,
  reservations: readonly SeedReservation[],
  now = new Date(),
  batchSize?: number,
): Promise<{ active: number; released: number; locks: number }> {
  const doc = (r: SeedReservation) => ({
    _id: new Types.ObjectId(r.id),
    room: r.room,
    doctor: r.doctor,
    dates: r.dates,
    createdAt: r.createdAt,
    updatedAt: r.releasedAt ?? r.createdAt,
  });
  const active = reservations.filter((r) => !r.releasedAt);
  const released = reservations.filter((r) => r.releasedAt);
  const locks = active.flatMap((r) =>
    r.dates
      .filter((date) => date > now)
      .map((date) => ({
        _id: slotKey(r.room, date),
        reservationId: r.id,
        room: r.room,
        date,
        createdAt: r.createdAt,
      })),
  );
  return {
    active: await insertPublished(
      models.Reservation,
      active.map((r) => ({ ...doc(r), status: 'active' })),
      batchSize,
    ),
    released: await insertPublished(
      models.ReleasedReservation,
      released.map((r) => ({ ...doc(r), status: 'released', releasedAt: r.releasedAt })),
      batchSize,
    ),
    locks: await insertPublished(models.SlotLock, locks, batchSize),
  };
}
