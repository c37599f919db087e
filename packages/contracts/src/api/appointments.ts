import type { Paged } from './paging';
import { z } from 'zod';
import type { Role } from '../roles';
import { kioskCodeField, objectIdField } from './fields';

/**
 * Life of an appointment (services/appointments/README.md, "Statuses"): `booked`, then `checkedIn`
 * when the patient arrives; both are active (they hold the slot and the patient). It ends as
 * `attended` (staff, or a clinical record saved for it), `noShow` (staff, or by itself 30 minutes
 * after its end), `cancelled` (the patient, a doctor or an admin) or `deleted` (an admin).
 */
export const APPOINTMENT_STATUSES = [
  'booked',
  'checkedIn',
  'attended',
  'noShow',
  'cancelled',
  'deleted',
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** The statuses of an appointment that still holds its slot and its patient. */
export const ACTIVE_APPOINTMENT_STATUSES = [
  'booked',
  'checkedIn',
] as const satisfies readonly AppointmentStatus[];

/** When a booked appointment can be checked in, around its start: from 2 hours before to 30 minutes after. */
export const CHECK_IN_WINDOW = { opensMinutesBefore: 120, closesMinutesAfter: 30 } as const;

/** A booked appointment nobody checked in or marked becomes `noShow` this long after its end. */
export const NO_SHOW_AFTER_END_MINUTES = 30;

/** Through which door the appointment was booked. */
export const BOOKING_CHANNELS = ['patient', 'staff', 'kiosk'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];

const DATE_REQUIRED = 'La fecha es obligatoria';
const DATE_INVALID = 'La fecha no es válida';

/** An instant as ISO 8601 with seconds and a zone (`Z` or `+01:00`), e.g. `2026-11-23T09:15:00.000Z`. */
export const instantField = z
  .string({ error: (issue) => (issue.input === undefined ? DATE_REQUIRED : DATE_INVALID) })
  .pipe(z.iso.datetime({ offset: true, error: DATE_INVALID }))
  .transform((value) => new Date(value));

/** The request field that names the patient: the errors about that patient point at it. */
export const PATIENT_ID_FIELD = 'pacientId';

const pacientIdField = z
  .string({
    error: (issue) => (issue.input === undefined ? 'El paciente es obligatorio' : 'Identificador no válido'),
  })
  .pipe(objectIdField);

/** `POST /dates`: a patient books for themself (any other field is ignored). */
export const bookForSelfBody = z.object({ date: instantField });
/** `POST /dates/admin`: a doctor or admin books for a patient. */
export const bookForPatientBody = z.object({ date: instantField, pacientId: pacientIdField });
/**
 * `POST /dates/reschedule` (the patient's own active appointment) and `POST /dates/reschedule/:id`
 * (staff): move it to another free grid slot in one step, with the booking's slot rules.
 */
export const rescheduleBody = z.object({ date: instantField });
/**
 * `POST /dates/service`: the kiosk books a walk-in; the date defaults to one minute from now. `code`
 * is the kiosk's proof that the person is the patient (docs/product/kiosk.md#proof): without a
 * matching one the kiosk gets 403.
 */
export const bookWalkInBody = z.object({
  date: instantField.optional(),
  pacientId: pacientIdField,
  code: kioskCodeField.optional(),
});

export const APPOINTMENT_SORTS = ['date', '-date', 'name', '-name'] as const;
export type AppointmentSort = (typeof APPOINTMENT_SORTS)[number];

/** `GET /dates`: the back office's paged list. */
export const appointmentsQuery = z.object({
  page: z.coerce.number({ error: 'Página no válida' }).int().min(1).max(100000).default(1),
  limit: z.coerce
    .number({ error: 'Límite no válido' })
    .int()
    .min(1)
    .default(10)
    .transform((limit) => Math.min(limit, 100)),
  search: z.string().trim().max(100).default(''),
  sort: z.enum(APPOINTMENT_SORTS).default('date'),
  /**
   * One status, `all`, or `current`: the day's work — every booked or checked-in appointment, and
   * those attended or marked no-show from the start of today (Atlantic/Canary).
   */
  status: z.enum([...APPOINTMENT_STATUSES, 'all', 'current']).default('booked'),
});
export type AppointmentsQuery = z.infer<typeof appointmentsQuery>;

/**
 * `POST /dates/checkin` (check in the patient's appointment of now) and `POST /dates/service/now`.
 * The kiosk must send `code`, the patient's booking code or e-mailed one-time code
 * (docs/product/kiosk.md#proof); doctors and admins, who see the person, need none.
 */
export const pacientBody = z.object({ pacientId: pacientIdField, code: kioskCodeField.optional() });

/**
 * `POST /dates/code/verify`: does this patient's active appointment carry this booking code? The
 * auth service asks it for the kiosk (with the kiosk's token) when a person proves who they are with
 * their booking code; wrong codes are counted per patient.
 */
export const bookingCodeCheckBody = z.object({ pacientId: pacientIdField, code: kioskCodeField });

const DAY_INVALID = 'La fecha debe tener el formato AAAA-MM-DD';
/** A calendar day `YYYY-MM-DD` that exists (no 2027-02-30). */
export const localDayField = z
  .string({ error: DAY_INVALID })
  .regex(/^\d{4}-\d{2}-\d{2}$/, DAY_INVALID)
  // Piped, so a malformed text gets one message, not two.
  .pipe(
    z.string().refine((day) => {
      const [year, month, date] = day.split('-').map(Number) as [number, number, number];
      const utc = new Date(Date.UTC(year, month - 1, date));
      return utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === date;
    }, DAY_INVALID),
  );

/** `POST /dates/waitlist` and `DELETE /dates/waitlist/:day`: a day of the centre (Atlantic/Canary). */
export const waitlistDayBody = z.object({ day: localDayField });
export const waitlistDayParam = waitlistDayBody;

const OFFER_LINK_INVALID = 'El enlace de la oferta no es válido';
/** `/dates/offer/:token`: the random token of a waiting-list offer's e-mailed link. */
export const offerTokenParam = z.object({
  token: z.string().regex(/^[A-Za-z0-9_-]{32,64}$/, OFFER_LINK_INVALID),
});

/** A waiting-list offer: a freed slot held for its patient until `expiresAt`. */
export interface WaitlistOfferView {
  date: string;
  expiresAt: string;
}

/** One day a patient waits for, with their place in line (1 = next to be offered a freed slot). */
export interface WaitlistEntryView {
  day: string;
  joinedAt: string;
  position: number;
  /** A slot of that day held for them now (the e-mailed link claims it). */
  offer?: WaitlistOfferView;
  /** Slots of that day held for them that they did not claim in time (never offered to them again). */
  missedOffers?: WaitlistOfferView[];
}

/** `GET /dates/waitlist`: the caller's entries, from today on. */
export interface WaitlistView {
  entries: WaitlistEntryView[];
}

/** `GET /dates/slots?day=`: one day as the calendar offers it (public). */
export const daySlotsQuery = z.object({ day: localDayField });
/** The answer: closed (`open: false`, `reason`) or the free slots after now, in order. */
export interface DaySlotsView {
  day: string;
  open: boolean;
  /** The holiday's name or the closure's reason; a shortened day's reason. */
  reason?: string;
  /** A shortened day: the centre closes at this time (`HH:mm`). */
  closesAt?: string;
  slots: string[];
}

/** `GET /dates/agenda`: one day of the centre (Atlantic/Canary), today by default. */
export const agendaQuery = z.object({ date: localDayField.optional() });
export type AgendaQuery = z.infer<typeof agendaQuery>;

export const appointmentIdParam = z.object({ id: objectIdField });
/** `DELETE /dates/:date`: the patient names their appointment by its date value. */
export const appointmentDateParam = z.object({ date: instantField });

export interface AppointmentUser {
  id: string;
  name: string;
  email: string;
  phone?: string;
}

/** An appointment as the front ends read it. `_id` and `id` are the same value; `name` is the patient's. */
export interface AppointmentView {
  id: string;
  _id: string;
  date: string;
  status: AppointmentStatus;
  name: string;
  pacientId: string;
  user: AppointmentUser;
  channel: BookingChannel;
  createdAt: string;
  /** When the patient was checked in (statuses `checkedIn`, and `attended`/`cancelled`/… after one). */
  checkedInAt?: string;
  /** When it ended (every status but `booked` and `checkedIn`). */
  endedAt?: string;
  /** A cancelled appointment moved by a reschedule: the appointment that replaced it. */
  rescheduledTo?: string;
  /** The appointment a reschedule moved here. */
  rescheduledFrom?: { id: string; date: string };
  /**
   * A cancellation more than the refund window before the start
   * (docs/product/centre-profile.md#refund-window).
   */
  refundable?: boolean;
  /** A patient's move inside the refund window made it: cancelling it is not refunded. */
  refundForfeited?: true;
  /**
   * The code the patient shows at the kiosk (and staff read out): 6 characters, unique among the
   * active appointments (kiosk-codes.ts). Absent only on appointments that ended before codes existed.
   */
  bookingCode?: string;
}

/** One line of the day's agenda (`GET /dates/agenda`). */
export type AgendaEntry = Pick<
  AppointmentView,
  | 'id'
  | 'date'
  | 'status'
  | 'name'
  | 'pacientId'
  | 'user'
  | 'channel'
  | 'checkedInAt'
  | 'endedAt'
  | 'bookingCode'
>;

/** `GET /dates/agenda`: the day's appointments and walk-ins in time order (deleted ones left out). */
export interface AgendaResponse {
  /** The day shown, `YYYY-MM-DD` in `timeZone`. */
  date: string;
  timeZone: string;
  appointments: AgendaEntry[];
}

/**
 * The patient's active appointment, as the 409 of a booking call carries it (`appointment` next to
 * `message` and `errors`), so the kiosk can tell "check in" from "another day: be seen now?".
 */
export interface HeldAppointment {
  id: string;
  date: string;
  status: Extract<AppointmentStatus, 'booked' | 'checkedIn'>;
  /** Its start is today in the centre's time zone. */
  today: boolean;
  /** It can be checked in right now (`POST /dates/checkin`). */
  checkInOpen: boolean;
}

/** Body of the 409 "the patient already has an active appointment". */
export interface PatientAlreadyBookedBody {
  message: string;
  errors: Array<{ message: string; field: string }>;
  appointment?: HeldAppointment;
}

export interface AppointmentsPage extends Paged {
  dates: AppointmentView[];
}

/** `POST /dates` answer. */
export interface BookingResponse {
  id: string;
  date: string;
  name: string;
  bookingCode: string;
  /** Held unpaid until then (the centre requires online payment): pay by then or the slot is freed. */
  paymentDueBy?: string;
}

/** `GET /dates/currentDate`: the patient's current appointment, or `{date: null}`. */
export type CurrentDateView =
  | {
      id: string;
      date: string;
      status: AppointmentStatus;
      checkedInAt?: string;
      refundForfeited?: true;
      bookingCode?: string;
      /** Held unpaid until then (the centre requires online payment); absent once paid or never held. */
      paymentDueBy?: string;
    }
  | { date: null };

/** Answer of the cancel and delete calls. */
export interface AppointmentStatusChange {
  message: string;
  id: string;
  status: AppointmentStatus;
}

/** The patient as the appointment screens show them. */
export interface AppointmentPatientView extends AppointmentUser {
  _id: string;
  rol: Extract<Role, 'PACIENT'>;
}

/** `GET /dates/userid/:id`: the patient and their active appointments. */
export interface PatientAppointments {
  user: AppointmentPatientView;
  appointment: AppointmentView[];
}

/** `GET /dates/history/userid/:id`: every appointment of the patient, newest first. */
export interface PatientHistory {
  appointments: AppointmentView[];
  user: AppointmentPatientView;
}
