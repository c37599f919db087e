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
  patientId: string;
  /** The patient as they were when the appointment was booked (kept fresh by `auth.user.updated`). */
  user: AppointmentUser;
  bookedBy: Actor;
  channel: BookingChannel;
  /** Walk-ins (the kiosk's immediate bookings) are not grid slots and block no one else's slot. */
  walkIn: boolean;
  createdAt: Date;
  /** When the patient was checked in (kept by the final copy once it ends). */
  checkedInAt?: Date;
  /** When it ended (cancelled, deleted, attended, noShow). */
  endedAt?: Date;
  /** The calendar entry of its e-mails (absent: its own id, never moved). */
  calendar?: CalendarEntry;
  /** Cancelled by a reschedule: the appointment that took its place. */
  rescheduledTo?: string;
  /** Made by a reschedule: the appointment it replaced. */
  rescheduledFrom?: { id: string; date: Date };
  /**
   * Cancelled more than the refund window before the start (docs/product/centre-profile.md#refund-window).
   */
  refundable?: boolean;
  /**
   * Made by a patient's move inside the refund window (or from an appointment that was): the move
   * keeps the original's refund status, so cancelling this one is not refunded either.
   */
  refundForfeited?: true;
  /**
   * What the patient shows at the kiosk to prove it is them (docs/product/kiosk.md#proof): unique
   * among the live appointments. Only appointments that ended before codes existed have none.
   */
  bookingCode?: string;
  /**
   * A patient's web booking while the centre requires online payment (docs/product/payments.md#slot-hold):
   * held unpaid until then, released by the sweep unless a payment succeeded. A move keeps it.
   */
  paymentDueBy?: Date;
}

/** The UID root (the first appointment's id) and SEQUENCE of the calendar entry its e-mails carry. */
export interface CalendarEntry {
  uid: string;
  sequence: number;
}

/** The calendar entry of an appointment as it is now. */
export const calendarOf = (appointment: Pick<Appointment, 'id' | 'calendar'>): CalendarEntry =>
  appointment.calendar ?? { uid: appointment.id, sequence: 0 };

/** An appointment to be booked: the repository gives it its id (unless chosen) and its booking code. */
export type NewAppointment = Omit<
  Appointment,
  'id' | 'status' | 'createdAt' | 'checkedInAt' | 'endedAt' | 'rescheduledTo' | 'refundable' | 'bookingCode'
>;

/** What the event of a new appointment is written from: its id and the booking code it was given. */
export interface Booked {
  id: string;
  bookingCode: string;
}

/** The statuses an appointment can end in. */
export type EndStatus = Exclude<AppointmentStatus, 'booked' | 'checkedIn'>;

/** How an appointment ends: the status, when, who (absent: the service itself or a record). */
export interface Ending {
  to: EndStatus;
  at: Date;
  by?: Actor;
  /** The clinical record that marked it attended. */
  recordId?: string;
  /** The walk-in that replaces it (kiosk "be seen now"); its id is chosen before either is written. */
  replacement?: { id: string; date: Date; bookedBy: Actor };
  /** A reschedule moved it to this appointment (held before this end is written). */
  rescheduledTo?: string;
  /** A cancellation's refund, decided when it is made. */
  refundable?: boolean;
  /** Released by the service: the patient's account was still unconfirmed, or the booking unpaid. */
  endedBecause?: 'unconfirmedAccount' | 'unpaid';
}

/** A replacement walk-in whose booking may not have been written (a crash between the two writes). */
export interface PendingReplacement {
  replaced: Appointment;
  walkIn: { id: string; date: Date; bookedBy: Actor };
}

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
  status: AppointmentStatus | 'all' | 'current';
  /** With `current`: appointments that ended are listed from this instant on (the start of today). */
  endedFrom?: Date;
  /** The service's clock. */
  now?: Date;
}

/**
 * Persistence the booking rules need. The one-per-slot and one-per-patient rules live in the
 * database (unique keys), so `book` either stores the appointment or throws one of the errors above;
 * every write carries the events describing it (outbox). Reads give each appointment as it is now
 * (its check-in and its end taken into account).
 */
export interface AppointmentRepository {
  /** A fresh appointment id (for a replacement walk-in, named before it is written). */
  newId(): string;
  /**
   * Inserts the active appointment with a booking code no live appointment has; `options.id` books
   * under an id chosen beforehand (a replacement).
   */
  book(
    appointment: NewAppointment,
    event: (booked: Booked) => EventEnvelope,
    options?: { id?: string },
  ): Promise<Appointment>;
  /**
   * The patient as their live appointment knows them, when that appointment carries this booking
   * code (the kiosk's proof); undefined otherwise.
   */
  codeHolder(patientId: string, bookingCode: string): Promise<AppointmentUser | undefined>;
  /** Gives a code to live appointments made before codes existed; returns how many it gave. */
  assignMissingCodes(): Promise<number>;
  /** Copies a patient's changed details into their active appointment (search and e-mails use them). */
  refreshPatient(patient: AppointmentUser): Promise<void>;
  findById(id: string): Promise<Appointment | undefined>;
  /** The appointment holding the patient's active key (at most one exists), as it is now. */
  findHeldBy(patientId: string): Promise<Appointment | undefined>;
  /** Every appointment of the patient, newest first. */
  listByPatient(patientId: string): Promise<Appointment[]>;
  /** `totalIsEstimate` when the whole list was not counted for this request (no filter at all). */
  page(
    query: AppointmentPageQuery,
  ): Promise<{ items: Appointment[]; total: number; totalIsEstimate: boolean }>;
  /** Instants of grid slots held by active appointments from `from` on. */
  bookedSlotsFrom(from: Date): Promise<Date[]>;
  /** Appointments starting in [from, to), any status, in time order. */
  listBetween(from: Date, to: Date): Promise<Appointment[]>;
  /** Appointments of a day at the centre (YYYY-MM-DD), any status, in time order. */
  listOnDay(day: string): Promise<Appointment[]>;
}

/**
 * The lifecycle writes (see README, "Concurrency design"). Each takes the appointment as the caller
 * saw it and succeeds only if it is still in that status: of concurrent transitions of one
 * appointment exactly one succeeds; the others get undefined (look again, then decide).
 */
export interface TransitionRepository {
  /** booked → checkedIn, keeping slot and patient held; stores `event`. */
  checkIn(
    seen: Appointment,
    at: Date,
    by: Actor,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined>;
  /** booked or checkedIn → an end status, freeing slot and patient; stores `event`. */
  end(
    seen: Appointment,
    ending: Ending,
    event: (appointment: Appointment) => EventEnvelope,
  ): Promise<Appointment | undefined>;
  /** Active appointments (booked or checked in) that started before `cutoff`, oldest first. */
  findActiveBefore(cutoff: Date): Promise<Appointment[]>;
  /** Finishes ends interrupted between their two writes (a crash); returns how many it repaired. */
  repairInterruptedEnds(): Promise<number>;
  /** Appointments replaced by a walk-in, ended between `from` and `to`, whose walk-in was never written. */
  pendingReplacements(from: Date, to: Date): Promise<PendingReplacement[]>;
}

/**
 * A reschedule's claim on its target slot (README, "Reschedule"), held under the new appointment's
 * id until the old appointment has ended, then turned into the new appointment.
 */
export interface SlotHolds {
  /** 'slotTaken': another appointment (or hold) has the slot; 'moving': this appointment is already being moved. */
  hold(
    from: Appointment,
    id: string,
    target: Date,
    now: Date,
    refundForfeited: boolean,
  ): Promise<'held' | 'slotTaken' | 'moving'>;
  /** The hold becomes the booked appointment, with `event`; 'patientBusy' if the patient booked meanwhile. */
  promote(
    id: string,
    event: (moved: Appointment) => EventEnvelope,
  ): Promise<Appointment | 'patientBusy' | 'gone'>;
  release(id: string): Promise<void>;
  /** A move of one of the patient's appointments is under way (a hold of theirs exists). */
  movingFor(patientId: string): Promise<boolean>;
  /** Holds made before `before` (left by a crash, or by a move still under way), with the appointment they move. */
  staleHolds(before: Date): Promise<Array<{ id: string; fromId: string }>>;
}

/**
 * Booked appointments made by patients on the web that may have to be released (their account is
 * unconfirmed).
 */
export interface UnconfirmedHolds {
  /** Booked on the web before `bookedBefore`, or starting before `startsBefore`, still booked. */
  candidates(bookedBefore: Date, startsBefore: Date): Promise<Appointment[]>;
}
