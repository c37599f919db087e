import { z } from 'zod';
import type { Role } from '../roles';
import { objectIdField } from './fields';

/**
 * Life of an appointment: `booked` while active; it ends as `cancelled` (by the patient, a doctor
 * or an admin), `deleted` (by an admin) or `attended` (set later by the records service).
 */
export const APPOINTMENT_STATUSES = ['booked', 'cancelled', 'deleted', 'attended'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** Through which door the appointment was booked. */
export const BOOKING_CHANNELS = ['patient', 'staff', 'kiosk'] as const;
export type BookingChannel = (typeof BOOKING_CHANNELS)[number];

/** Time zone, slot length and opening hours of SPEC §9; the appointments service enforces them. */
export const CENTRE_TIME_ZONE = 'Atlantic/Canary';
export const SLOT_MINUTES = 15;

const DATE_REQUIRED = 'La fecha es obligatoria';
const DATE_INVALID = 'La fecha no es válida';

/** An instant as ISO 8601 with seconds and a zone (`Z` or `+01:00`), e.g. `2026-11-23T09:15:00.000Z`. */
export const instantField = z
  .string({ error: (issue) => (issue.input === undefined ? DATE_REQUIRED : DATE_INVALID) })
  .pipe(z.iso.datetime({ offset: true, error: DATE_INVALID }))
  .transform((value) => new Date(value));

const pacientIdField = z
  .string({
    error: (issue) => (issue.input === undefined ? 'El paciente es obligatorio' : 'Identificador no válido'),
  })
  .pipe(objectIdField);

/** `POST /dates`: a patient books for themself (any other field is ignored). */
export const bookForSelfBody = z.object({ date: instantField });
/** `POST /dates/admin`: a doctor or admin books for a patient. */
export const bookForPatientBody = z.object({ date: instantField, pacientId: pacientIdField });
/** `POST /dates/service`: the kiosk books a walk-in; the date defaults to one minute from now. */
export const bookWalkInBody = z.object({ date: instantField.optional(), pacientId: pacientIdField });

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
  status: z.enum([...APPOINTMENT_STATUSES, 'all']).default('booked'),
});
export type AppointmentsQuery = z.infer<typeof appointmentsQuery>;

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
}

export interface AppointmentsPage {
  dates: AppointmentView[];
  total: number;
  page: number;
  totalPages: number;
  limit: number;
}

/** `POST /dates` answer. */
export interface BookingResponse {
  id: string;
  date: string;
  name: string;
}

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
