import type { EventEnvelope, RoomReservationView } from '@crm/contracts';

export interface DoctorRef {
  id: string;
  name?: string;
}

export interface Reservation {
  id: string;
  room: string;
  doctor: DoctorRef;
  /** Hourly slot instants, ascending. */
  dates: Date[];
  status: 'active' | 'released';
  createdAt: Date;
  releasedAt?: Date;
}

export type NewReservation = Pick<Reservation, 'room' | 'doctor' | 'dates'>;

/** Some requested slots are held by other reservations; nothing of the request was kept. */
export class SlotsTakenError extends Error {
  constructor(readonly taken: Date[]) {
    super('Room slots already taken');
    this.name = 'SlotsTakenError';
  }
}

/** Persistence the reservation rules need. Every write takes its events with it (outbox). */
export interface ReservationRepository {
  /**
   * All or nothing: either every slot is now held by the new reservation, or it throws
   * SlotsTakenError naming the slots held by others and keeps none. `events` gets the new id.
   */
  create(reservation: NewReservation, events: (id: string) => EventEnvelope[]): Promise<Reservation>;
  findById(id: string): Promise<Reservation | undefined>;
  /** Marks an active reservation released and frees its slots; undefined if it was not active. */
  release(id: string, events: EventEnvelope[]): Promise<Reservation | undefined>;
  /** Active reservations of a doctor with at least one slot at or after `from`, by first slot. */
  activeForDoctor(doctorId: string, from: Date): Promise<Reservation[]>;
  /** Active reservations of a room with at least one slot at or after `from`, by first slot. */
  activeForRoom(room: string, from: Date): Promise<Reservation[]>;
  /** Slot instants at or after `from` held by active reservations (of one room, or of every room). */
  reservedInstants(from: Date, room?: string): Promise<Date[]>;
}

export function toReservationView(reservation: Reservation): RoomReservationView {
  return {
    id: reservation.id,
    room: reservation.room,
    doctor: { ...reservation.doctor },
    dates: reservation.dates.map((date) => date.toISOString()),
    createdAt: reservation.createdAt.toISOString(),
  };
}
