import { appointmentRescheduled } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import { eventData } from '../events/appointment.payloads';
import {
  calendarOf,
  type Actor,
  type Appointment,
  type AppointmentRepository,
  type SlotHolds,
} from './appointment';
import {
  appointmentNotFound,
  checkedInNotMovable,
  dateRefused,
  moveUnderWay,
  notMovable,
  nothingToMove,
  patientAlreadyBooked,
  refusalError,
  sameSlot,
  slotTaken,
} from './booking.messages';
import { initiatorOf, type LifecycleService } from './lifecycle.service';
import { PUBLIC_HOLIDAYS_ONLY, type CentreCalendar } from './centre-calendar';
import { slotRefusal } from './slot-rules';

/** A hold older than this is no longer a move under way: housekeeping finishes or drops it. */
const HOLD_GRACE_MS = 60_000;
/** A patient's call this soon after one of their moves ended meets that move, not an empty slot. */
const RECENT_MOVE_MS = 5_000;

/**
 * Moves a booked appointment to another free grid slot in one step (README, "Reschedule"): first
 * the target slot is held (so nobody can take it, and only one move of the appointment runs), then
 * the old appointment ends as cancelled naming its successor, then the hold becomes the new
 * appointment. The patient never holds two active appointments, and when the slot is taken the
 * old one is left as it was (409). The freed slot is free at once.
 */
export class RescheduleService {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly holds: SlotHolds,
    private readonly lifecycle: LifecycleService,
    private readonly clock: () => Date = () => new Date(),
    private readonly calendar: CentreCalendar = PUBLIC_HOLIDAYS_ONLY,
  ) {}

  /** `POST /dates/reschedule`: the patient's own active appointment. */
  async moveOwn(caller: Actor, date: Date): Promise<Appointment> {
    // Between a move's end of the old appointment and the new one's promotion nothing is held: a
    // hold of the patient's says a move is under way, and so does a move that ended a moment ago
    // (its new appointment may not be readable yet). Only then is there nothing to move.
    for (let look = 1; ; look++) {
      const held = await this.appointments.findHeldBy(caller.id);
      if (held) return this.move(caller, held, date);
      if (await this.holds.movingFor(caller.id)) throw moveUnderWay();
      if (look >= 2) break;
    }
    if (await this.movedMomentsAgo(caller.id)) throw moveUnderWay();
    throw nothingToMove();
  }

  private async movedMomentsAgo(patientId: string): Promise<boolean> {
    const since = this.clock().getTime() - RECENT_MOVE_MS;
    return (await this.appointments.listByPatient(patientId)).some(
      (a) => a.rescheduledTo !== undefined && (a.endedAt?.getTime() ?? 0) >= since,
    );
  }

  /** `POST /dates/reschedule/:id` (doctor, admin). */
  async moveById(caller: Actor, id: string, date: Date): Promise<Appointment> {
    const appointment = await this.appointments.findById(id);
    if (!appointment) throw appointmentNotFound();
    return this.move(caller, appointment, date);
  }

  /** Holds left behind: finished when their old appointment ended for them, else dropped. */
  async finishStaleHolds(): Promise<number> {
    let settled = 0;
    for (const { id, fromId } of await this.holds.staleHolds(
      new Date(this.clock().getTime() - HOLD_GRACE_MS),
    )) {
      const from = await this.appointments.findById(fromId);
      if (from?.status === 'cancelled' && from.rescheduledTo === id) {
        const moved = await this.holds.promote(id, (a) => this.movedEvent(a, from, undefined));
        if (moved === 'patientBusy') await this.holds.release(id);
      } else {
        await this.holds.release(id);
      }
      settled++;
    }
    return settled;
  }

  private async move(caller: Actor, current: Appointment, target: Date): Promise<Appointment> {
    const now = this.clock();
    const refusal = slotRefusal(target, now, await this.calendar.closures());
    if (refusal) throw dateRefused(refusal);
    if (current.status === 'checkedIn' && caller.rol === 'PACIENT') throw checkedInNotMovable();
    if (current.status !== 'booked' || current.walkIn) throw notMovable();
    if (current.date.getTime() === target.getTime()) throw sameSlot();

    const id = this.appointments.newId();
    const held = await this.holds.hold(current, id, target, now, await this.forfeitsRefund(caller, current));
    if (held === 'slotTaken') throw slotTaken();
    if (held === 'moving') throw moveUnderWay();
    return this.finishMove(caller, current, id);
  }

  /**
   * A patient's move keeps the refund status the appointment has now: made inside the refund
   * window, the new one is not refunded either (else moving would turn a late cancellation into a
   * refunded one). The centre's own moves do not take it away, but keep one taken already.
   */
  async forfeitsRefund(caller: Actor, current: Appointment): Promise<boolean> {
    if (current.refundForfeited) return true;
    if (caller.rol !== 'PACIENT') return false;
    return !(await this.lifecycle.wouldRefund(current, this.clock()));
  }

  /**
   * The last two steps of a move once `id` holds the target slot (a reschedule's hold, or a
   * waiting-list offer turned into one): `current` ends naming `id`, then the hold is promoted.
   */
  async finishMove(caller: Actor, current: Appointment, id: string): Promise<Appointment> {
    const ended = await this.lifecycle.attempt(current, {
      to: 'cancelled',
      initiator: initiatorOf(caller),
      by: caller,
      rescheduledTo: id,
    });
    if (!('done' in ended)) {
      await this.holds.release(id);
      if ('missing' in ended) throw appointmentNotFound();
      // Another move ended it first (a second click, a second tab): that move is the answer, not
      // "no appointment on that date".
      if (ended.refused === 'ended' && (await this.appointments.findById(current.id))?.rescheduledTo)
        throw moveUnderWay();
      throw refusalError(ended.refused, 'cancelled', initiatorOf(caller));
    }
    const moved = await this.holds.promote(id, (a) => this.movedEvent(a, current, caller));
    if (moved === 'patientBusy') {
      await this.holds.release(id);
      throw patientAlreadyBooked();
    }
    if (moved === 'gone') throw moveUnderWay();
    return moved;
  }

  private movedEvent(moved: Appointment, from: Appointment, by: Actor | undefined) {
    return createEnvelope(
      appointmentRescheduled,
      {
        ...eventData(moved, undefined),
        by: by ?? moved.bookedBy,
        previous: { id: from.id, date: from.date.toISOString() },
        calendar: calendarOf(moved),
        ...(moved.refundForfeited ? { refundForfeited: true } : {}),
        ...(moved.paymentDueBy ? { paymentDueBy: moved.paymentDueBy.toISOString() } : {}),
      },
      correlationIdOrNew(),
    );
  }
}
