import {
  appointmentAttended,
  appointmentCancelled,
  appointmentCheckedIn,
  appointmentDeleted,
  appointmentNoShow,
  centreDayOf,
  isRefundable,
  type EventContract,
  type EventEnvelope,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { conflict, correlationIdOrNew } from '@crm/server-kit';
import {
  calendarOf,
  type Actor,
  type Appointment,
  type AppointmentRepository,
  type Ending,
  type TransitionRepository,
} from './appointment';
import { eventData } from '../events/appointment.payloads';
import { appointmentNotFound, noAppointmentToCheckIn, refusalError } from './booking.messages';
import {
  checkInOpen,
  isToday,
  sweepCutoff,
  sweepOutcome,
  transitionRefusal,
  type Initiator,
  type Refusal,
  type Target,
} from './lifecycle.rules';

export interface TransitionRequest {
  to: Target;
  initiator: Initiator;
  /** The person who asks; absent when a record or the service itself does. */
  by?: Actor;
  recordId?: string;
  replacement?: Ending['replacement'];
  rescheduledTo?: string;
  endedBecause?: Ending['endedBecause'];
}

export type Outcome = { done: Appointment } | { refused: Refusal; current: Appointment } | { missing: true };

/**
 * A status only moves forward (booked → checkedIn → ended), so a transition that lost a race looks
 * again at most twice before the rules refuse it; the bound only guards against a broken store.
 */
const MAX_ATTEMPTS = 4;

/** The initiator a caller's role stands for. */
export const initiatorOf = (actor: Actor): Initiator =>
  actor.rol === 'PACIENT' ? 'patient' : actor.rol === 'SERVICE_ACCOUNT' ? 'kiosk' : 'staff';

/**
 * The lifecycle after booking (README, "Statuses"): check-in, attended, no-show, cancel, delete,
 * the no-show sweep and the day's agenda. Every transition reads the appointment as it is, asks the
 * rules (lifecycle.rules.ts), and writes with the repository's insert-under-unique-key, which lets
 * exactly one of several concurrent transitions through; a loser looks again and gets the answer
 * the rules give for the new status.
 */
export class LifecycleService {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly transitions: TransitionRepository,
    private readonly clock: () => Date = () => new Date(),
    /** The centre profile's refund window (hours), for the cancellations a person makes. */
    private readonly refundWindow?: { hours(): Promise<number> },
  ) {}

  /** Moves the appointment as asked, or says why not. `seen`: an appointment already read. */
  async attempt(target: string | Appointment, request: TransitionRequest): Promise<Outcome> {
    const id = typeof target === 'string' ? target : target.id;
    let seen = typeof target === 'string' ? undefined : target;
    for (let attempt = 1; ; attempt++) {
      const current = seen ?? (await this.appointments.findById(id));
      seen = undefined;
      if (!current) return { missing: true };
      const now = this.clock();
      const refusal = transitionRefusal(current, request.to, request.initiator, now);
      if (refusal) return { refused: refusal, current };
      const done = await this.write(current, request, now);
      if (done) return { done };
      if (attempt >= MAX_ATTEMPTS) throw conflict('La cita está cambiando; inténtelo de nuevo');
    }
  }

  /** `attempt`, with refusals turned into their HTTP answers. */
  async transition(target: string | Appointment, request: TransitionRequest): Promise<Appointment> {
    const outcome = await this.attempt(target, request);
    if ('done' in outcome) return outcome.done;
    if ('missing' in outcome) throw appointmentNotFound();
    throw refusalError(outcome.refused, request.to, request.initiator);
  }

  /** `POST /dates/checkin/:id` (doctor, admin). */
  checkIn(caller: Actor, id: string): Promise<Appointment> {
    return this.transition(id, { to: 'checkedIn', initiator: initiatorOf(caller), by: caller });
  }

  /** `POST /dates/checkin`: the patient's appointment whose check-in window is open now. */
  async checkInPatient(caller: Actor, patientId: string): Promise<Appointment> {
    const held = await this.appointments.findHeldBy(patientId);
    const now = this.clock();
    const active = held && (held.status === 'booked' || held.status === 'checkedIn') ? held : undefined;
    if (!active) throw noAppointmentToCheckIn(false);
    if (active.status === 'booked' && !checkInOpen(active, now))
      throw noAppointmentToCheckIn(isToday(active, now));
    return this.transition(active, { to: 'checkedIn', initiator: initiatorOf(caller), by: caller });
  }

  /** `POST /dates/attended/:id`, `POST /dates/noshow/:id`, `DELETE /dates/cancel/:id`, `/delete/:id`. */
  end(caller: Actor, id: string, to: Exclude<Target, 'checkedIn'>): Promise<Appointment> {
    return this.transition(id, { to, initiator: initiatorOf(caller), by: caller });
  }

  /**
   * A clinical record was saved for the appointment: it was attended. Idempotent: an appointment that
   * has ended already (attended by staff, cancelled, a no-show) or is unknown is left alone.
   */
  async attendedByRecord(dateId: string, recordId: string): Promise<Outcome> {
    return this.attempt(dateId, { to: 'attended', initiator: 'record', recordId });
  }

  /**
   * Ends what is due (README, "No-shows"): booked appointments 30 minutes after their end become
   * noShow, checked-in ones of a past day attended. Idempotent, and safe with several replicas
   * sweeping at once: each appointment moves once, with one event.
   */
  async sweep(): Promise<{ noShow: number; attended: number }> {
    const now = this.clock();
    const result = { noShow: 0, attended: 0 };
    for (const appointment of await this.transitions.findActiveBefore(sweepCutoff(now))) {
      const to = sweepOutcome(appointment, now);
      if (!to) continue;
      const outcome = await this.attempt(appointment, { to, initiator: 'system' });
      if ('done' in outcome) result[to]++;
    }
    return result;
  }

  /** A booked appointment past its check-in window whose patient books again: it was missed. */
  closeMissed(appointment: Appointment): Promise<Outcome> {
    return this.attempt(appointment, { to: 'noShow', initiator: 'system' });
  }

  /** Finishes ends interrupted between their two writes (a crash). */
  repairInterruptedEnds(): Promise<number> {
    return this.transitions.repairInterruptedEnds();
  }

  /** `GET /dates/agenda`: a local day's appointments in time order; deleted ones are left out. */
  async agenda(day?: string): Promise<{ day: string; appointments: Appointment[] }> {
    const shown = day ?? centreDayOf(this.clock());
    const appointments = await this.appointments.listOnDay(shown);
    return { day: shown, appointments: appointments.filter((a) => a.status !== 'deleted') };
  }

  private async refundOf(current: Appointment, request: TransitionRequest, now: Date) {
    if (!this.refundWindow || !isPlainCancellation(request)) return {};
    return { refundable: await this.wouldRefund(current, now) };
  }

  /** Whether the patient cancelling `appointment` at `now` would be refunded. */
  async wouldRefund(appointment: Appointment, now: Date): Promise<boolean> {
    if (appointment.refundForfeited) return false;
    if (!this.refundWindow) return true;
    return isRefundable(appointment.date, now, await this.refundWindow.hours());
  }

  private async write(current: Appointment, request: TransitionRequest, now: Date) {
    const { to, by } = request;
    if (to === 'checkedIn') {
      if (!by) throw new Error('a check-in needs the person who made it');
      return this.transitions.checkIn(current, now, by, (a) =>
        envelope(appointmentCheckedIn, { ...eventData(a, by), checkedInAt: a.checkedInAt!.toISOString() }),
      );
    }
    const ending: Ending = {
      to,
      at: now,
      ...(by ? { by } : {}),
      ...(request.recordId ? { recordId: request.recordId } : {}),
      ...(request.replacement ? { replacement: request.replacement } : {}),
      ...(request.rescheduledTo ? { rescheduledTo: request.rescheduledTo } : {}),
      ...(request.endedBecause ? { endedBecause: request.endedBecause } : {}),
      ...(await this.refundOf(current, request, now)),
    };
    return this.transitions.end(current, ending, (a) => endEvent(a, ending));
  }
}

/** A cancellation a person makes (not a kiosk swap, a move or a release) is refunded or not. */
function isPlainCancellation(request: TransitionRequest): boolean {
  return (
    request.to === 'cancelled' && !request.replacement && !request.rescheduledTo && request.by !== undefined
  );
}

function endEvent(a: Appointment, ending: Ending): EventEnvelope {
  const endedAt = ending.at.toISOString();
  switch (ending.to) {
    case 'attended':
      return envelope(appointmentAttended, {
        ...eventData(a, ending.by),
        endedAt,
        ...(a.checkedInAt ? { checkedInAt: a.checkedInAt.toISOString() } : {}),
        ...(ending.recordId ? { recordId: ending.recordId } : {}),
      });
    case 'noShow':
      return envelope(appointmentNoShow, { ...eventData(a, ending.by), endedAt });
    case 'cancelled':
      return envelope(appointmentCancelled, {
        ...eventData(a, ending.by),
        // Released by the service itself: nobody did it.
        ...(ending.endedBecause ? { endedBecause: ending.endedBecause } : { by: person(ending) }),
        ...(ending.replacement ? { replacedBy: ending.replacement.id } : {}),
        ...(ending.rescheduledTo ? { rescheduledTo: ending.rescheduledTo } : {}),
        ...(ending.refundable !== undefined ? { refundable: ending.refundable } : {}),
        ...(ending.refundable === false && a.refundForfeited ? { refundForfeited: true } : {}),
        calendar: calendarOf(a),
      });
    case 'deleted':
      return envelope(appointmentDeleted, { ...eventData(a, ending.by), by: person(ending) });
  }
}

/** Cancelling and deleting are always someone's doing. */
function person(ending: Ending): Actor {
  if (!ending.by) throw new Error(`${ending.to} needs the person who did it`);
  return ending.by;
}

const envelope = <C extends EventContract>(contract: C, data: Parameters<typeof createEnvelope<C>>[1]) =>
  createEnvelope(contract, data, correlationIdOrNew());
