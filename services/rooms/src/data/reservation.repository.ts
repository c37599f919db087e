import { Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import { isDuplicateKey } from '@crm/server-kit';
import { serviceUnavailable } from '@crm/server-kit';
import type { NewReservation, Reservation, ReservationRepository } from '../domain/reservation';
import type { ReservationDocument, ReservationModels } from './reservation.model';
import type { SlotLocks } from './slot-locks';

/**
 * Longest time between taking the first lock and sending the reservation. The sweep only removes
 * locks older than its grace period (minimum 2 minutes), so a reservation sent within this limit
 * (plus the driver's 20 s socket timeout) can never lose its locks to the sweep.
 */
export const LOCK_HOLD_LIMIT_MS = 30_000;

function toReservation(doc: ReservationDocument): Reservation {
  return {
    id: String(doc._id),
    room: doc.room,
    doctor: doc.doctor.name ? { id: doc.doctor.id, name: doc.doctor.name } : { id: doc.doctor.id },
    dates: doc.dates.map((date) => new Date(date)).sort((a, b) => a.getTime() - b.getTime()),
    status: doc.status,
    createdAt: new Date(doc.createdAt),
    ...(doc.releasedAt ? { releasedAt: new Date(doc.releasedAt) } : {}),
  };
}

/**
 * Reservations in MongoDB, their slots guarded by SlotLocks. Creation takes the locks first and then
 * inserts the reservation with its event (outbox) in one write. Release inserts the released copy
 * (with its event) and then deletes the active document and the locks: inserts and deletes only, which
 * are atomic on FerretDB too (reservation.model.ts). Until a crashed release is finished by the sweep,
 * a reservation can exist in both collections; the released copy is the truth.
 */
export class MongoReservationRepository implements ReservationRepository {
  constructor(
    private readonly models: ReservationModels,
    private readonly locks: SlotLocks,
    private readonly outboxWritten: () => void,
  ) {}

  async create(reservation: NewReservation, events: (id: string) => EventEnvelope[]): Promise<Reservation> {
    const _id = new Types.ObjectId();
    const id = String(_id);
    const started = Date.now();
    await this.locks.acquireAll(id, reservation.room, reservation.dates);
    if (Date.now() - started > LOCK_HOLD_LIMIT_MS) {
      // The database is crawling; past this point the sweep could take our locks for orphans.
      await this.locks.giveBack(id);
      throw serviceUnavailable();
    }
    try {
      const doc = await this.models.Reservation.create(
        withOutbox({ _id, ...reservation, status: 'active' as const }, ...events(id)),
      );
      this.outboxWritten();
      return toReservation(doc.toObject<ReservationDocument>());
    } catch (error) {
      // A validation error is raised before anything is sent. Any other failure may still have
      // written the reservation, so its locks stay: the sweep frees them if it never appears.
      if ((error as Error).name === 'ValidationError') await this.locks.giveBack(id);
      throw error;
    }
  }

  async findById(id: string): Promise<Reservation | undefined> {
    if (!Types.ObjectId.isValid(id)) return undefined;
    const released = await this.models.ReleasedReservation.findById(id).lean<ReservationDocument>();
    if (released) return toReservation(released);
    const doc = await this.models.Reservation.findById(id).lean<ReservationDocument>();
    return doc ? toReservation(doc) : undefined;
  }

  async release(id: string, events: EventEnvelope[]): Promise<Reservation | undefined> {
    if (!Types.ObjectId.isValid(id)) return undefined;
    const active = await this.models.Reservation.findById(id).lean<ReservationDocument>();
    if (!active) return undefined;
    const { outbox: unpublished = [], ...fields } = active;
    let released: ReservationDocument;
    try {
      // Events of the active document not yet relayed move with it (the relay may also have sent
      // them already: delivery is at-least-once and consumers dedupe by event id).
      const doc = await this.models.ReleasedReservation.create(
        withOutbox(
          { ...fields, status: 'released' as const, releasedAt: new Date() },
          ...unpublished,
          ...events,
        ),
      );
      released = doc.toObject<ReservationDocument>();
    } catch (error) {
      if (isDuplicateKey(error)) return undefined; // a concurrent release won
      throw error;
    }
    this.outboxWritten();
    // After the release is stored: whatever is left behind by a failure here is removed by the sweep.
    await this.models.Reservation.deleteOne({ _id: id });
    await this.locks.giveBack(id);
    return toReservation(released);
  }

  async activeForDoctor(doctorId: string, from: Date): Promise<Reservation[]> {
    return this.activeFrom({ 'doctor.id': doctorId }, from);
  }

  async activeForRoom(room: string, from: Date): Promise<Reservation[]> {
    return this.activeFrom({ room }, from);
  }

  /** Active reservations matching `filter` with a slot at or after `from`, by first slot. */
  private async activeFrom(filter: Record<string, string>, from: Date): Promise<Reservation[]> {
    const docs = await this.withoutReleased(
      await this.models.Reservation.find({ ...filter, status: 'active', dates: { $gte: from } })
        .limit(500)
        .lean<ReservationDocument[]>(),
    );
    return docs.map(toReservation).sort((a, b) => a.dates[0]!.getTime() - b.dates[0]!.getTime());
  }

  async reservedInstants(from: Date, room?: string): Promise<Date[]> {
    const docs = await this.withoutReleased(
      await this.models.Reservation.find(
        { status: 'active', ...(room ? { room } : {}), dates: { $gte: from } },
        { dates: 1 },
      ).lean<Array<Pick<ReservationDocument, '_id' | 'dates'>>>(),
    );
    return docs.flatMap((doc) => doc.dates.map((date) => new Date(date))).filter((date) => date >= from);
  }

  /** Drops active documents of a release that crashed before deleting them (see the class comment). */
  private async withoutReleased<T extends { _id: Types.ObjectId }>(docs: T[]): Promise<T[]> {
    if (docs.length === 0) return docs;
    const released = await this.models.ReleasedReservation.find(
      { _id: { $in: docs.map((doc) => doc._id) } },
      { _id: 1 },
    ).lean<Array<{ _id: Types.ObjectId }>>();
    const releasedIds = new Set(released.map((doc) => String(doc._id)));
    return docs.filter((doc) => !releasedIds.has(String(doc._id)));
  }
}
