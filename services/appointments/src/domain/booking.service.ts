import {
  appointmentBooked,
  appointmentCancelled,
  appointmentDeleted,
  type AppointmentStatus,
  type BookingChannel,
  type EventContract,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import {
  PatientAlreadyBookedError,
  SlotTakenError,
  type Actor,
  type Appointment,
  type AppointmentPageQuery,
  type AppointmentRepository,
} from './appointment';
import {
  appointmentNotFound,
  appointmentStarted,
  dateRefused,
  noAppointmentOnDate,
  notBooked,
  patientAlreadyBooked,
  patientNotFound,
  selfAlreadyBooked,
  slotTaken,
} from './booking.messages';
import type { Patient, PatientDirectory } from './patient';
import {
  SLOT_MESSAGES,
  SLOT_MS,
  slotIsOver,
  slotProblem,
  startOfLocalDay,
  walkInProblem,
} from './slot-rules';

/** The caller of a request: who they are and the bearer token to ask the auth service with. */
export interface Caller extends Actor {
  bearerToken: string;
}

/** SPEC §6: the kiosk books "now plus 60 seconds" unless it says otherwise. */
export const WALK_IN_DEFAULT_DELAY_MS = 60_000;

const isStaff = (actor: Actor) => actor.rol === 'DOCTOR' || actor.rol === 'ADMIN';

/**
 * The appointment rules of SPEC §4–§9. The rules that must hold under concurrency (one patient per
 * slot, one active appointment per patient) are enforced by the repository's unique keys; this class
 * checks everything else and turns the repository's refusals into the answers the front ends expect.
 */
export class BookingService {
  constructor(
    private readonly appointments: AppointmentRepository,
    private readonly patients: PatientDirectory,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** `POST /dates`: a patient books a grid slot for themself. */
  async bookForSelf(caller: Caller, date: Date): Promise<Appointment> {
    this.assertSlot(date);
    const patient = await this.patients.find(caller.id, { bearerToken: caller.bearerToken, self: true });
    if (!patient) throw patientNotFound('date');
    return this.book(patient, date, caller, 'patient');
  }

  /** `POST /dates/admin`: a doctor or admin books a grid slot for a patient. */
  async bookForPatient(caller: Caller, pacientId: string, date: Date): Promise<Appointment> {
    this.assertSlot(date);
    return this.book(await this.patientForStaff(caller, pacientId), date, caller, 'staff');
  }

  /** `POST /dates/service`: the kiosk books a walk-in for right now; no grid slot is taken. */
  async bookWalkIn(caller: Caller, pacientId: string, date?: Date): Promise<Appointment> {
    const now = this.clock();
    // Whole seconds: the default instant is shown to people and written to calendars.
    const when = date ?? new Date(Math.floor((now.getTime() + WALK_IN_DEFAULT_DELAY_MS) / 1000) * 1000);
    const problem = walkInProblem(when, now);
    if (problem) throw dateRefused(SLOT_MESSAGES[problem]);
    return this.book(await this.patientForStaff(caller, pacientId), when, caller, 'kiosk');
  }

  /** `GET /dates/currentDate`: the date of the patient's active appointment, or null. */
  async currentDate(caller: Actor): Promise<Date | null> {
    const held = await this.appointments.findHeldBy(caller.id);
    return held && !slotIsOver(held.date, this.clock()) ? held.date : null;
  }

  /** `DELETE /dates/:date`: a patient cancels their own booked appointment, named by its date. */
  async cancelOwn(caller: Actor, date: Date): Promise<Appointment> {
    const held = await this.appointments.findHeldBy(caller.id);
    const appointment = held && held.date.getTime() === date.getTime() ? held : undefined;
    if (!appointment) throw noAppointmentOnDate();
    if (appointment.date.getTime() <= this.clock().getTime()) throw appointmentStarted();
    const cancelled = await this.end(appointment.id, 'cancelled', caller, appointmentCancelled);
    if (!cancelled) throw noAppointmentOnDate();
    return cancelled;
  }

  /** `DELETE /dates/cancel/:id` (doctor, admin). */
  cancelById(caller: Actor, id: string): Promise<Appointment> {
    return this.endById(caller, id, 'cancelled');
  }

  /** `DELETE /dates/delete/:id` (admin). */
  deleteById(caller: Actor, id: string): Promise<Appointment> {
    return this.endById(caller, id, 'deleted');
  }

  /** `GET /dates/id/:id`: staff see any appointment; a patient only their own (else "not found"). */
  async findForCaller(caller: Actor, id: string): Promise<Appointment> {
    const appointment = await this.appointments.findById(id);
    if (!appointment || (!isStaff(caller) && appointment.pacientId !== caller.id))
      throw appointmentNotFound();
    return appointment;
  }

  /** `GET /dates/userid/:id`: the patient and their active appointments. */
  async activeOf(
    caller: Caller,
    pacientId: string,
  ): Promise<{ patient: Patient; appointments: Appointment[] }> {
    const patient = await this.patientVisibleTo(caller, pacientId);
    return {
      patient,
      appointments: await this.appointments.listByPatient(pacientId, { activeAt: this.clock() }),
    };
  }

  /** `GET /dates/history/userid/:id`: the patient and all their appointments, newest first. */
  async historyOf(
    caller: Caller,
    pacientId: string,
  ): Promise<{ patient: Patient; appointments: Appointment[] }> {
    const patient = await this.patientVisibleTo(caller, pacientId);
    return { patient, appointments: await this.appointments.listByPatient(pacientId) };
  }

  list(query: AppointmentPageQuery) {
    return this.appointments.page(query);
  }

  /** `GET /dates/booked`: booked grid slots from the start of today (Atlantic/Canary) on. */
  bookedSlots(): Promise<Date[]> {
    return this.appointments.bookedSlotsFrom(startOfLocalDay(this.clock()));
  }

  /**
   * Periodic upkeep: frees patients and slots still held by appointments whose slot is over (so the
   * active set stays small), and finishes ends a crash interrupted.
   */
  async housekeeping(): Promise<{ released: number; repaired: number }> {
    const over = await this.appointments.findActiveBefore(new Date(this.clock().getTime() - SLOT_MS), 500);
    for (const appointment of over) await this.appointments.releaseOverHold(appointment);
    return { released: over.length, repaired: await this.appointments.repairInterruptedEnds() };
  }

  private assertSlot(date: Date): void {
    const problem = slotProblem(date, this.clock());
    if (problem) throw dateRefused(SLOT_MESSAGES[problem]);
  }

  private async patientForStaff(caller: Caller, pacientId: string): Promise<Patient> {
    const patient = await this.patients.find(pacientId, { bearerToken: caller.bearerToken, self: false });
    if (!patient) throw patientNotFound();
    return patient;
  }

  /** A patient may only look at themself; asking about someone else answers like an unknown id. */
  private async patientVisibleTo(caller: Caller, pacientId: string): Promise<Patient> {
    const self = caller.id === pacientId;
    if (!isStaff(caller) && !self) throw patientNotFound('id');
    const patient = await this.patients.find(pacientId, {
      bearerToken: caller.bearerToken,
      self: !isStaff(caller),
    });
    if (!patient) throw patientNotFound('id');
    return patient;
  }

  private async book(patient: Patient, date: Date, by: Actor, channel: BookingChannel): Promise<Appointment> {
    const appointment = {
      date,
      pacientId: patient.id,
      user: patient,
      bookedBy: { id: by.id, rol: by.rol },
      channel,
      walkIn: channel === 'kiosk',
    };
    // A second attempt only after freeing a hold left by an appointment whose slot is over.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.appointments.book(appointment, (id) =>
          createEnvelope(appointmentBooked, eventData({ ...appointment, id }, by), correlationIdOrNew()),
        );
      } catch (error) {
        if (error instanceof SlotTakenError) throw slotTaken();
        if (!(error instanceof PatientAlreadyBookedError)) throw error;
        const holder = error.holder;
        if (attempt === 1 && holder && slotIsOver(holder.date, this.clock())) {
          // Whether this call or a concurrent one frees it, the unique key decides the retry.
          await this.appointments.releaseOverHold(holder);
          continue;
        }
        throw by.rol === 'PACIENT' ? selfAlreadyBooked() : patientAlreadyBooked();
      }
    }
  }

  private async endById(caller: Actor, id: string, to: 'cancelled' | 'deleted'): Promise<Appointment> {
    const contract = to === 'cancelled' ? appointmentCancelled : appointmentDeleted;
    const ended = await this.end(id, to, caller, contract);
    if (ended) return ended;
    if (!(await this.appointments.findById(id))) throw appointmentNotFound();
    throw notBooked(to === 'cancelled' ? 'cancel' : 'delete');
  }

  private end(id: string, to: AppointmentStatus, by: Actor, contract: EventContract) {
    return this.appointments.end(id, to, by, (appointment) =>
      createEnvelope(contract, eventData(appointment, by), correlationIdOrNew()),
    );
  }
}

function eventData(
  appointment: Pick<Appointment, 'id' | 'date' | 'pacientId' | 'user' | 'channel'>,
  by: Actor,
) {
  return {
    id: appointment.id,
    date: appointment.date.toISOString(),
    pacientId: appointment.pacientId,
    user: appointment.user,
    channel: appointment.channel,
    by: { id: by.id, rol: by.rol },
  };
}
