import { Schema, type Connection, type Types } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { outboxPlugin } from '@crm/event-bus';

const reservationSchema = new Schema(
  {
    room: { type: String, required: true },
    doctor: {
      type: new Schema(
        { id: { type: String, required: true }, name: { type: String } },
        { _id: false, id: false },
      ),
      required: true,
    },
    dates: { type: [Date], required: true },
    status: { type: String, enum: ['active', 'released'], required: true, default: 'active' },
    releasedAt: { type: Date },
  },
  { collection: 'reservations', timestamps: true, versionKey: false },
);
/** Events are written in the same document write as the change they describe. */
reservationSchema.plugin(outboxPlugin);
reservationSchema.index({ status: 1, room: 1, dates: 1 });
reservationSchema.index({ 'doctor.id': 1, status: 1 });

/**
 * Released reservations live in their own collection under the same `_id`: a release inserts the
 * released copy (the unique `_id` lets exactly one release win) and then deletes the active document.
 * Nothing ever updates a reservation in place, because FerretDB 1.24 updates are read-modify-write of
 * the whole document and could be overwritten by the outbox relay's concurrent `$pull` (see README).
 */
const releasedReservationSchema = reservationSchema.clone();
releasedReservationSchema.set('collection', 'released_reservations');

export interface ReservationDocument {
  _id: Types.ObjectId;
  room: string;
  doctor: { id: string; name?: string };
  dates: Date[];
  status: 'active' | 'released';
  releasedAt?: Date;
  createdAt: Date;
  outbox?: EventEnvelope[];
}

/**
 * One document per held room-slot: `_id` is `<room>|<ISO instant>`, so the unique `_id` index lets
 * exactly one reservation hold a slot, even under parallel requests. (A unique multikey index on the
 * reservation's slots would do it in one write, but FerretDB 1.24 does not enforce uniqueness across
 * array elements; see README.)
 */
const slotLockSchema = new Schema(
  {
    _id: { type: String, required: true },
    reservationId: { type: String, required: true },
    room: { type: String, required: true },
    date: { type: Date, required: true },
    createdAt: { type: Date, required: true },
  },
  { collection: 'slot_locks', versionKey: false },
);
slotLockSchema.index({ reservationId: 1 });
slotLockSchema.index({ date: 1, createdAt: 1 });

export interface SlotLockDocument {
  _id: string;
  reservationId: string;
  room: string;
  date: Date;
  createdAt: Date;
}

export function reservationModels(connection: Connection) {
  return {
    Reservation: connection.model('Reservation', reservationSchema),
    ReleasedReservation: connection.model('ReleasedReservation', releasedReservationSchema),
    SlotLock: connection.model('SlotLock', slotLockSchema),
  };
}

export type ReservationModels = ReturnType<typeof reservationModels>;

export const slotKey = (room: string, instant: Date) => `${room}|${instant.toISOString()}`;
