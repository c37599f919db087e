import {
  roomReservationReleased,
  roomReservationReserved,
  type ReserveRoomBody,
  type RoomReservationView,
  type RoomReservedResponse,
  type RoomView,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import {
  badRequest,
  correlationIdOrNew,
  fieldError,
  forbidden,
  notFound,
  type AuthenticatedUser,
} from '@crm/server-kit';
import { toRoomView, type RoomRepository } from './room';
import { findSlotIssues, formatLocal, SLOT_PROBLEM_MESSAGES } from './room-slots';
import {
  SlotsTakenError,
  toReservationView,
  type DoctorRef,
  type Reservation,
  type ReservationRepository,
} from './reservation';
import { SlotsTakenConflict } from './slots-taken.conflict';

const NOT_FOUND = 'Reserva no encontrada';

/** Consulting-room reservations: who may reserve what, and which slots are valid (docs/product/rooms.md). */
export class ReservationService {
  constructor(
    private readonly rooms: RoomRepository,
    private readonly reservations: ReservationRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async listRooms(): Promise<RoomView[]> {
    return (await this.rooms.listActive()).map(toRoomView);
  }

  async reservedDates(room?: string): Promise<string[]> {
    const instants = await this.reservations.reservedInstants(this.now(), room);
    // Without a room, two rooms may hold the same hour: list each instant once.
    const unique = [...new Set(instants.map((instant) => instant.getTime()))].sort((a, b) => a - b);
    return unique.map((time) => new Date(time).toISOString());
  }

  async reserve(caller: AuthenticatedUser, body: ReserveRoomBody): Promise<RoomReservedResponse> {
    const doctor = this.doctorFor(caller, body.doctor);
    const dates = this.checkedSlots(body.dates);
    if (!(await this.rooms.findActive(body.room))) throw fieldError(400, 'room', 'La consulta no existe');
    let reservation: Reservation;
    try {
      reservation = await this.reservations.create({ room: body.room, doctor, dates }, (id) => [
        createEnvelope(
          roomReservationReserved,
          reservationSnapshot(id, body.room, doctor.id, dates),
          correlationIdOrNew(),
        ),
      ]);
    } catch (error) {
      if (error instanceof SlotsTakenError) throw new SlotsTakenConflict(error.taken);
      throw error;
    }
    const view = toReservationView(reservation);
    return { message: 'Consulta reservada', id: view.id, room: view.room, dates: view.dates };
  }

  async mine(caller: AuthenticatedUser): Promise<RoomReservationView[]> {
    return (await this.reservations.activeForDoctor(caller.id, this.now())).map(toReservationView);
  }

  /**
   * The room's reservations from now on, whoever holds them: staff share the rooms, so every doctor
   * sees who has which hour (the holder's id; the back office shows the staff member's name).
   */
  async forRoom(room: string): Promise<RoomReservationView[]> {
    return (await this.reservations.activeForRoom(room, this.now())).map(toReservationView);
  }

  /** A doctor cancels their own reservation; an admin any. */
  async release(caller: AuthenticatedUser, id: string): Promise<RoomReservationView> {
    const existing = await this.reservations.findById(id);
    if (!existing || existing.status !== 'active') throw notFound(NOT_FOUND);
    if (caller.rol !== 'ADMIN' && existing.doctor.id !== caller.id) {
      throw forbidden('Solo puede cancelar sus propias reservas');
    }
    const released = await this.reservations.release(id, [
      createEnvelope(
        roomReservationReleased,
        reservationSnapshot(id, existing.room, existing.doctor.id, existing.dates),
        correlationIdOrNew(),
      ),
    ]);
    // Released by a concurrent request between the read and the write.
    if (!released) throw notFound(NOT_FOUND);
    return toReservationView(released);
  }

  /** The doctor is the caller; only an admin may reserve in another doctor's name. */
  private doctorFor(caller: AuthenticatedUser, requested: ReserveRoomBody['doctor']): DoctorRef {
    const ref = typeof requested === 'string' ? { id: requested } : requested;
    if (!ref) return { id: caller.id };
    if (caller.rol !== 'ADMIN' && ref.id !== caller.id) {
      throw fieldError(403, 'doctor', 'No puede reservar una consulta en nombre de otro médico');
    }
    return ref.name ? { id: ref.id, name: ref.name } : { id: ref.id };
  }

  /** Parsed, checked and sorted slots, or a 400 listing every slot that breaks a rule. */
  private checkedSlots(isoDates: readonly string[]): Date[] {
    const instants = isoDates.map((iso) => new Date(iso));
    const issues = findSlotIssues(instants, this.now());
    if (issues.length > 0) {
      const errors = issues.map(({ instant, problem }) => ({
        message: `${SLOT_PROBLEM_MESSAGES[problem]} (${formatLocal(instant)})`,
        field: 'dates',
      }));
      throw badRequest(errors[0]!.message, errors);
    }
    return [...instants].sort((a, b) => a.getTime() - b.getTime());
  }
}

/** The payload of the reservation events (`rooms.reservation.reserved.v1`, `…released.v1`). */
export function reservationSnapshot(id: string, room: string, doctorId: string, dates: readonly Date[]) {
  return { id, room, doctorId, dates: dates.map((date) => date.toISOString()) };
}
