import type {
  AppointmentSort,
  AppointmentStatus,
  AppointmentUser,
  BookingChannel,
  EventEnvelope,
  Role,
} from '@crm/contracts';

/** Who did something: the caller's id and role, as the token says. */
export interface Actor {
  id: string;
  rol: Role;
}

export interface Appointment {
  id: string;
  date: Date;
  status: AppointmentStatus;
  pacientId: string;
  /** The patient as they were when the appointment was booked (kept fresh by `auth.user.updated`). */
  user: AppointmentUser;
  bookedBy: Actor;
  channel: BookingChannel;
  /** Walk-ins (the kiosk's immediate bookings) are not grid slots and block no one else's slot. */
  walkIn: boolean;
  createdAt: Date;
}

export type NewAppointment = Omit<Appointment, 'id' | 'status' | 'createdAt'>;

/** The database refused the booking: that slot already has a booked appointment. */
export class SlotTakenError extends Error {
  constructor() {
    super('slot already booked');
  }
}

/** The database refused the booking: the patient already holds an active appointment. */
export class PatientAlreadyBookedError extends Error {
  constructor(readonly holder: Appointment | undefined) {
    super('patient already has an active appointment');
  }
}

export interface AppointmentPageQuery {
  page: number;
  limit: number;
  search: string;
  sort: AppointmentSort;
  status: AppointmentStatus | 'all';
}

/**
 * Persistence the booking rules need. The one-per-slot and one-per-patient rules live in the
 * database (unique keys), so `book` either stores the appointment or throws one of the errors above;
 * every write carries the events describing it (outbox).
 */
export interface AppointmentRepository {
  book(appointment: NewAppointment, event: (id: string) => EventEnvelope): Promise<Appointment>;
  /**
   * Ends an active (booked) appointment as `to`, freeing its slot and patient, and stores `event`
   * with that change. Of concurrent calls for one appointment exactly one succeeds; the others, and
   * calls for an appointment that is not active, get undefined.
   */
  end(
    id: string,
    to: AppointmentStatus,
    by: Actor,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined>;
  /**
   * Frees slot and patient held by an appointment whose slot is over but that nobody marked attended;
   * it stays `booked` in the history. No event: nothing happened to the patient.
   */
  releaseOverHold(appointment: Appointment): Promise<void>;
  /** Active appointments whose slot ended before `cutoff` (for housekeeping). */
  findActiveBefore(cutoff: Date, limit: number): Promise<Appointment[]>;
  /** Finishes ends interrupted between their two writes (a crash); returns how many it repaired. */
  repairInterruptedEnds(): Promise<number>;
  /** Copies a patient's changed details into their active appointment (search and e-mails use them). */
  refreshPatient(patient: AppointmentUser): Promise<void>;
  findById(id: string): Promise<Appointment | undefined>;
  /** The appointment holding the patient's active key (at most one exists). */
  findHeldBy(pacientId: string): Promise<Appointment | undefined>;
  /** Newest first; with `activeAt`, only active appointments whose slot is not over at that instant. */
  listByPatient(pacientId: string, options?: { activeAt?: Date }): Promise<Appointment[]>;
  page(query: AppointmentPageQuery): Promise<{ items: Appointment[]; total: number }>;
  /** Instants of booked grid slots from `from` on. */
  bookedSlotsFrom(from: Date): Promise<Date[]>;
}
