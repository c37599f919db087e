import { appointmentBooked, dayStatus, type BookingChannel, type HeldAppointment } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import { eventData } from '../events/appointment.payloads';
import {
  PatientAlreadyBookedError,
  SlotTakenError,
  type Actor,
  type Appointment,
  type AppointmentPageQuery,
  type AppointmentRepository,
  type Booked,
  type NewAppointment,
  type TransitionRepository,
} from './appointment';
import {
  appointmentIsNow,
  appointmentNotFound,
  dateRefused,
  noAppointmentOnDate,
  patientAlreadyBooked,
  patientNotFound,
  selfAlreadyBooked,
  slotTaken,
} from './booking.messages';
import { checkInOpen, checkInOpensAt, isCurrent, isToday } from './lifecycle.rules';
import type { LifecycleService } from './lifecycle.service';
import type { Patient, PatientDirectory } from './patient';
import type { PaymentHoldRelease } from './payment-hold';
import { PUBLIC_HOLIDAYS_ONLY, type CentreCalendar } from './centre-calendar';
import { slotRefusal, slotsOfDay, startOfLocalDay, walkInRefusal, type WalkInHours } from './slot-rules';

/** The caller of a request: who they are and the bearer token to ask the auth service with. */
export interface Caller extends Actor {
  bearerToken: string;
}

/** The kiosk books "now plus 60 seconds" unless it says otherwise (docs/product/kiosk.md#booking-time). */
export const WALK_IN_DEFAULT_DELAY_MS = 60_000;

const isStaff = (actor: Actor) => actor.rol === 'DOCTOR' || actor.rol === 'ADMIN';

/** A replacement walk-in still unwritten this long after its swap is written by housekeeping. */
const REPLACEMENT_GRACE_MS = 60_000;
/** …and given up after this long (the patient has long left the kiosk). */
const REPLACEMENT_GIVE_UP_MS = 24 * 3600_000;
/** Attempts of the kiosk's swap when a concurrent change of the patient's appointment interferes. */
const MAX_SWAP_ATTEMPTS = 3;

/**
 * The appointment rules (docs/product/booking.md#booking-rules). The rules that must hold under concurrency
 * (one patient per slot, one active appointment per patient) are enforced by the repository's unique keys;
 * this class checks everything else and turns the repository's refusals into the answers the front ends
 * expect.
 */
export class BookingService {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly transitions: TransitionRepository,
    private readonly lifecycle: LifecycleService,
    private readonly patients: PatientDirectory,
    private readonly clock: () => Date = () => new Date(),
    private readonly calendar: CentreCalendar = PUBLIC_HOLIDAYS_ONLY,
    private readonly walkInHours: WalkInHours = 'opening',
    /** The slot hold of unpaid web bookings when the centre requires online payment. */
    private readonly paymentHold?: Pick<PaymentHoldRelease, 'dueByForNewBooking' | 'isPaid'>,
  ) {}

  /** `POST /dates`: a patient books a grid slot for themself. */
  async bookForSelf(caller: Caller, date: Date): Promise<Appointment> {
    await this.assertSlot(date);
    const patient = await this.patients.find(caller.id, { bearerToken: caller.bearerToken, self: true });
    if (!patient) throw patientNotFound('date');
    // Staff and kiosk bookings are never held: the patient pays at the desk.
    const paymentDueBy = await this.paymentHold?.dueByForNewBooking();
    return this.book(patient, date, caller, 'patient', paymentDueBy);
  }

  /** `POST /dates/admin`: a doctor or admin books a grid slot for a patient. */
  async bookForPatient(caller: Caller, patientId: string, date: Date): Promise<Appointment> {
    await this.assertSlot(date);
    return this.book(await this.patientForStaff(caller, patientId), date, caller, 'staff');
  }

  /** `POST /dates/service`: the kiosk books a walk-in for right now; no grid slot is taken. */
  async bookWalkIn(caller: Caller, patientId: string, date?: Date): Promise<Appointment> {
    const now = this.clock();
    const when = date ?? walkInInstant(now);
    const refusal = walkInRefusal(when, now, await this.calendar.closures(), this.walkInHours);
    if (refusal) throw dateRefused(refusal);
    return this.book(await this.patientForStaff(caller, patientId), when, caller, 'kiosk');
  }

  /**
   * `POST /dates/service/now`: the patient at the kiosk is seen now. A booked appointment of theirs
   * whose check-in window has not opened yet (another day, or later today) is cancelled and replaced
   * by a walk-in in one step (README, "Be seen now"); with no appointment it is a plain walk-in; with
   * one that can be checked in now (or is), 409 with it.
   */
  async seeNow(caller: Caller, patientId: string): Promise<Appointment> {
    const now = this.clock();
    const refusal = walkInRefusal(walkInInstant(now), now, await this.calendar.closures(), this.walkInHours);
    if (refusal) throw dateRefused(refusal);
    const patient = await this.patientForStaff(caller, patientId);
    for (let attempt = 1; ; attempt++) {
      const now = this.clock();
      const held = await this.appointments.findHeldBy(patientId);
      if (held?.status !== 'booked' || now.getTime() >= checkInOpensAt(held)) {
        if (held && isCurrent(held, now)) throw appointmentIsNow(heldView(held, now));
        return this.book(patient, walkInInstant(now), caller, 'kiosk');
      }
      const walkIn = newAppointment(patient, walkInInstant(now), caller, 'kiosk');
      const id = this.appointments.newId();
      const outcome = await this.lifecycle.attempt(held, {
        to: 'cancelled',
        initiator: 'kiosk',
        by: caller,
        replacement: { id, date: walkIn.date, bookedBy: walkIn.bookedBy },
      });
      // Another change of that appointment came first (a double press, a check-in): look again.
      if (!('done' in outcome)) {
        if (attempt >= MAX_SWAP_ATTEMPTS) throw patientAlreadyBooked();
        continue;
      }
      return this.bookReplacement(walkIn, id, caller);
    }
  }

  /** `GET /dates/currentDate`: the patient's active appointment (its date, status, arrival), or undefined. */
  async currentDate(caller: Actor): Promise<Appointment | undefined> {
    const held = await this.appointments.findHeldBy(caller.id);
    if (!held || !isCurrent(held, this.clock())) return undefined;
    // A paid hold is over: the patient is no longer asked to pay by a time.
    if (held.paymentDueBy && (await this.paymentHold?.isPaid(held))) {
      const { paymentDueBy: _paid, ...kept } = held;
      return kept;
    }
    return held;
  }

  /** `DELETE /dates/:date`: a patient cancels their own booked appointment, named by its date. */
  async cancelOwn(caller: Actor, date: Date): Promise<Appointment> {
    const held = await this.appointments.findHeldBy(caller.id);
    const appointment = held && held.date.getTime() === date.getTime() ? held : undefined;
    if (!appointment) throw noAppointmentOnDate();
    return this.lifecycle.transition(appointment, { to: 'cancelled', initiator: 'patient', by: caller });
  }

  /** `DELETE /dates/cancel/:id` (doctor, admin). */
  cancelById(caller: Actor, id: string): Promise<Appointment> {
    return this.lifecycle.end(caller, id, 'cancelled');
  }

  /** `DELETE /dates/delete/:id` (admin). */
  deleteById(caller: Actor, id: string): Promise<Appointment> {
    return this.lifecycle.end(caller, id, 'deleted');
  }

  /** `GET /dates/id/:id`: staff see any appointment; a patient only their own (else "not found"). */
  async findForCaller(caller: Actor, id: string): Promise<Appointment> {
    const appointment = await this.appointments.findById(id);
    if (!appointment || (!isStaff(caller) && appointment.patientId !== caller.id))
      throw appointmentNotFound();
    return appointment;
  }

  /** `GET /dates/userid/:id`: the patient and their active appointments. */
  async activeOf(
    caller: Caller,
    patientId: string,
  ): Promise<{ patient: Patient; appointments: Appointment[] }> {
    const patient = await this.patientVisibleTo(caller, patientId);
    const now = this.clock();
    const all = await this.appointments.listByPatient(patientId);
    return { patient, appointments: all.filter((appointment) => isCurrent(appointment, now)) };
  }

  /** `GET /dates/history/userid/:id`: the patient and all their appointments, newest first. */
  async historyOf(
    caller: Caller,
    patientId: string,
  ): Promise<{ patient: Patient; appointments: Appointment[] }> {
    const patient = await this.patientVisibleTo(caller, patientId);
    return { patient, appointments: await this.appointments.listByPatient(patientId) };
  }

  list(query: AppointmentPageQuery) {
    const now = this.clock();
    return this.appointments.page({ ...query, endedFrom: startOfLocalDay(now), now });
  }

  /** `GET /dates/booked`: booked grid slots from the start of today (Atlantic/Canary) on. */
  bookedSlots(): Promise<Date[]> {
    return this.appointments.bookedSlotsFrom(startOfLocalDay(this.clock()));
  }

  /**
   * `GET /dates/slots?day=`: the day as the calendar offers it — closed (and why), or its free slots
   * after now (a shortened day's end before its closing time).
   */
  async daySlots(
    day: string,
  ): Promise<{ day: string; open: boolean; reason?: string; closesAt?: string; slots: Date[] }> {
    const closures = await this.calendar.closures();
    const status = dayStatus(day, closures);
    const now = this.clock().getTime();
    const all = slotsOfDay(day, closures);
    const taken = new Set(
      (await this.appointments.bookedSlotsFrom(startOfLocalDay(this.clock()))).map((d) => d.getTime()),
    );
    const slots = all.filter((slot) => slot.getTime() > now && !taken.has(slot.getTime()));
    if (!status.open) return { day, open: false, reason: status.reason, slots: [] };
    return {
      day,
      open: all.length > 0,
      ...(status.reason ? { reason: status.reason } : {}),
      ...(status.closesAt ? { closesAt: status.closesAt } : {}),
      slots,
    };
  }

  /**
   * Periodic upkeep: finishes ends a crash interrupted, and writes the walk-ins of kiosk swaps whose
   * second write a crash prevented (README, "Be seen now").
   */
  async housekeeping(): Promise<{ repaired: number; replaced: number }> {
    const repaired = await this.lifecycle.repairInterruptedEnds();
    const now = this.clock().getTime();
    let replaced = 0;
    const pending = await this.transitions.pendingReplacements(
      new Date(now - REPLACEMENT_GIVE_UP_MS),
      new Date(now - REPLACEMENT_GRACE_MS),
    );
    for (const { replaced: old, walkIn } of pending) {
      const appointment = newAppointment(old.user, walkIn.date, walkIn.bookedBy, 'kiosk');
      const written = await this.bookReplacement(appointment, walkIn.id, walkIn.bookedBy).catch(
        () => undefined,
      );
      if (written) replaced++;
    }
    return { repaired, replaced };
  }

  private async assertSlot(date: Date): Promise<void> {
    const refusal = slotRefusal(date, this.clock(), await this.calendar.closures());
    if (refusal) throw dateRefused(refusal);
  }

  private async patientForStaff(caller: Caller, patientId: string): Promise<Patient> {
    const patient = await this.patients.find(patientId, { bearerToken: caller.bearerToken, self: false });
    if (!patient) throw patientNotFound();
    return patient;
  }

  /** A patient may only look at themself; asking about someone else answers like an unknown id. */
  private async patientVisibleTo(caller: Caller, patientId: string): Promise<Patient> {
    const self = caller.id === patientId;
    if (!isStaff(caller) && !self) throw patientNotFound('id');
    const patient = await this.patients.find(patientId, {
      bearerToken: caller.bearerToken,
      self: !isStaff(caller),
    });
    if (!patient) throw patientNotFound('id');
    return patient;
  }

  private async book(
    patient: Patient,
    date: Date,
    by: Actor,
    channel: BookingChannel,
    paymentDueBy?: Date,
  ): Promise<Appointment> {
    const appointment = {
      ...newAppointment(patient, date, by, channel),
      ...(paymentDueBy ? { paymentDueBy } : {}),
    };
    // A second attempt only after ending a hold left by an appointment whose check-in window closed.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appointments.book(appointment, bookedEvent(appointment, by));
      } catch (error) {
        if (error instanceof SlotTakenError) throw slotTaken();
        if (!(error instanceof PatientAlreadyBookedError)) throw error;
        const holder = error.holder && (await this.appointments.findById(error.holder.id));
        const now = this.clock();
        if (attempt === 1 && holder && holder.status === 'booked' && !isCurrent(holder, now)) {
          // Whether this call or a concurrent one ends it, the unique key decides the retry.
          await this.lifecycle.closeMissed(holder);
          continue;
        }
        const held = holder && isCurrent(holder, now) ? heldView(holder, now) : undefined;
        throw by.rol === 'PACIENT' ? selfAlreadyBooked(held) : patientAlreadyBooked(held);
      }
    }
  }

  /** The walk-in of a swap, under the id its replaced appointment's final copy names. */
  private async bookReplacement(walkIn: NewAppointment, id: string, by: Actor): Promise<Appointment> {
    try {
      return await this.appointments.book(walkIn, bookedEvent(walkIn, by), { id });
    } catch (error) {
      if (!(error instanceof PatientAlreadyBookedError)) throw error;
      // Written already (by the swap itself, or by housekeeping): that is the walk-in.
      if (error.holder?.id === id) return error.holder;
      throw patientAlreadyBooked();
    }
  }
}

function newAppointment(patient: Patient, date: Date, by: Actor, channel: BookingChannel): NewAppointment {
  return {
    date,
    patientId: patient.id,
    user: patient,
    bookedBy: { id: by.id, rol: by.rol },
    channel,
    walkIn: channel === 'kiosk',
  };
}

const bookedEvent = (appointment: NewAppointment, by: Actor) => (booked: Booked) =>
  createEnvelope(
    appointmentBooked,
    {
      ...eventData({ ...appointment, ...booked }, by),
      by,
      ...(appointment.paymentDueBy ? { paymentDueBy: appointment.paymentDueBy.toISOString() } : {}),
    },
    correlationIdOrNew(),
  );

/** Whole seconds: the default instant is shown to people and written to calendars. */
const walkInInstant = (now: Date) =>
  new Date(Math.floor((now.getTime() + WALK_IN_DEFAULT_DELAY_MS) / 1000) * 1000);

/** The patient's active appointment as a 409 tells the kiosk about it. */
function heldView(appointment: Appointment, now: Date): HeldAppointment {
  return {
    id: appointment.id,
    date: appointment.date.toISOString(),
    status: appointment.status === 'checkedIn' ? 'checkedIn' : 'booked',
    today: isToday(appointment, now),
    checkInOpen: appointment.status === 'booked' && checkInOpen(appointment, now),
  };
}
