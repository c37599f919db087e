/**
 * Bulk seeding of the appointments service's collections with history (benchmarks, tests): the same
 * documents the booking, check-in and end paths write (built by `activeDocument` and `copyOf`, the
 * repository's own builders), inserted through the service's models in unordered batches, with
 * their events already published (no outbox entries, no pending flag: the relay has nothing due).
 * An appointment in the past is its final copy (and the check-in copy when it was checked in); one
 * still ahead is its active document. Waiting-list entries and offers likewise (offers built by
 * `offerDocument` and `offerRecord`). Nothing here is used by the running service;
 * test/seed-bulk.test.ts holds it to the documents the service writes.
 */
import { createHash } from 'node:crypto';
import {
  centreDayOf,
  phoneField,
  type AppointmentUser,
  type BookingChannel,
  type EventEnvelope,
} from '@crm/contracts';
import { insertPublished } from '@crm/event-bus';
import type { AppointmentModels } from './appointment.model';
import { AppointmentDays } from './appointment-days';
import { activeDocument, copyOf, keys } from './appointment.documents';
import type { AppointmentDocument } from './appointment.model';
import type { WaitlistModels } from './waitlist.model';
import { offerDocument } from './offer-hold.repository';
import { offerRecord } from './waitlist.repository';
import type { Actor } from '../domain/appointment';

export interface SeedPatient {
  id: string;
  name: string;
  /** Stored as the auth service sends it (lower case). */
  email: string;
  /** Any way of writing it; stored as the auth service sends it (digits with the country code). */
  phone?: string;
  /** When the auth service last said this (its account's creation, for history). */
  asOf: Date;
}

/** How a seeded appointment stands: still ahead (`booked`, `checkedIn`) or how it ended. */
export type SeedOutcome = 'booked' | 'checkedIn' | 'attended' | 'noShow' | 'cancelled';

export interface SeedAppointment {
  id: string;
  patient: { id: string; name: string; email: string; phone?: string };
  date: Date;
  bookedAt: Date;
  bookedBy: Actor;
  channel: BookingChannel;
  walkIn: boolean;
  outcome: SeedOutcome;
  /** Unique among the live appointments (6 characters, A–Z and 0–9). */
  bookingCode: string;
  /** Ended at; default: the appointment's time plus 15 minutes. */
  endedAt?: Date;
  /**
   * Who ended it: a cancellation always has someone (default: who booked it); an appointment
   * attended because of its record (`recordId`) has nobody, nor has a no-show the sweep ended.
   */
  endedBy?: Actor;
  /** Who checked it in; default: who ended it, else who booked it. */
  checkedInBy?: Actor;
  /** Attended because this clinical record was saved. */
  recordId?: string;
  /** Cancelled by a reschedule to this appointment. */
  rescheduledTo?: string;
  /** Made by a reschedule (the first move) of this one. */
  rescheduledFrom?: { id: string; date: Date };
}

/** A booking code derived from a number: distinct numbers give distinct codes (below 36⁶). */
export const seedBookingCode = (n: number) => n.toString(36).toUpperCase().padStart(6, '0').slice(-6);

/** Seeded documents carry no events: this placeholder is stripped with the outbox before inserting. */
const NO_EVENT = {} as EventEnvelope;

/** A person as the auth service's events give them: the e-mail lower-cased, the phone normalised. */
const asAuthSends = <P extends { email: string; phone?: string }>(person: P): P => ({
  ...person,
  email: person.email.toLowerCase(),
  ...(person.phone ? { phone: phoneField.parse(person.phone) } : {}),
});

/** The documents an appointment has in the collection once it got where `outcome` says. */
export function appointmentDocuments(a: SeedAppointment): object[] {
  if (a.recordId && a.endedBy)
    throw new Error(`appointment ${a.id}: attended by its record or by a person, not both`);
  const user: AppointmentUser = asAuthSends(a.patient);
  const active = {
    ...activeDocument(
      {
        date: a.date,
        user,
        patientId: a.patient.id,
        bookedBy: a.bookedBy,
        channel: a.channel,
        walkIn: a.walkIn,
        ...(a.rescheduledFrom ? { rescheduledFrom: a.rescheduledFrom } : {}),
      },
      a.id,
      a.bookingCode,
      NO_EVENT,
    ),
    bookedAt: a.bookedAt,
    // A move's appointment carries the calendar entry of the one it replaced, one sequence on.
    ...(a.rescheduledFrom ? { calendar: { uid: a.rescheduledFrom.id, sequence: 1 } } : {}),
  } as unknown as AppointmentDocument;
  if (a.outcome === 'booked') return [active];
  const at = a.endedAt ?? new Date(a.date.getTime() + 15 * 60_000);
  const checkedIn = a.outcome === 'checkedIn' || a.outcome === 'attended';
  const checkedInAt = new Date(a.date.getTime() - 5 * 60_000);
  const endedBy = a.endedBy ?? (a.outcome === 'cancelled' ? a.bookedBy : undefined);
  const checkin = copyOf(
    active,
    {
      kind: 'checkin',
      status: 'checkedIn',
      checkedInAt,
      checkedInBy: a.checkedInBy ?? a.endedBy ?? a.bookedBy,
      slotKey: keys.checkIn(a.id),
      activePatientKey: keys.released(a.id),
    },
    [],
  );
  if (a.outcome === 'checkedIn') return [active, checkin];
  const final = copyOf(
    active,
    {
      kind: 'final',
      status: a.outcome,
      slotKey: keys.released(a.id),
      activePatientKey: checkedIn ? keys.endedAfterCheckIn(a.id) : keys.released(a.id),
      endedAt: at,
      ...(endedBy ? { endedBy } : {}),
      ...(checkedIn ? { checkedInAt } : {}),
      ...(a.recordId ? { recordId: a.recordId } : {}),
      ...(a.rescheduledTo ? { rescheduledTo: a.rescheduledTo } : {}),
      // A person's cancellation, made well ahead (a move's has no refund of its own).
      ...(a.outcome === 'cancelled' && !a.rescheduledTo ? { refundable: true } : {}),
    },
    [],
  );
  return checkedIn ? [checkin, final] : [final];
}

/**
 * Inserts the appointments' documents and counts the days of the list of every appointment now
 * (rather than by the running service's pass); answers how many documents were written.
 */
export async function seedAppointments(
  models: AppointmentModels,
  appointments: readonly SeedAppointment[],
  batchSize?: number,
): Promise<number> {
  const pages = new AppointmentDays(models).pages.bulkLoad();
  const days = appointments.map(({ date }) => centreDayOf(date));
  await pages.marked(days);
  const stored = await insertPublished(
    models.Appointment,
    appointments.flatMap(appointmentDocuments),
    batchSize,
  );
  // Each appointment is listed once (active or final), on its day: what each day got is known.
  const added = new Map<string, number>();
  for (const day of days) added.set(day, (added.get(day) ?? 0) + 1);
  await pages.settleOwn(added);
  return stored;
}

/** The patients read model, as the auth service's events leave it. */
export function seedPatients(
  models: AppointmentModels,
  patients: readonly SeedPatient[],
  batchSize?: number,
): Promise<number> {
  return insertPublished(
    models.Patient,
    patients.map((p) => {
      const { email, phone } = asAuthSends(p);
      return { _id: p.id, name: p.name, email, ...(phone ? { phone } : {}), confirmed: true, asOf: p.asOf };
    }),
    batchSize,
  );
}

export interface SeedWaitlistEntry {
  pacientId: string;
  /** YYYY-MM-DD, the centre's day. */
  day: string;
  joinedAt: Date;
}

/** Waiting-list entries (no offer made). */
export function seedWaitlist(
  models: WaitlistModels,
  entries: readonly SeedWaitlistEntry[],
  batchSize?: number,
): Promise<number> {
  return insertPublished(models.WaitlistEntry, entries, batchSize);
}

export interface SeedOffer {
  /** 24 hex digits (the offer's, and the appointment's if claimed). */
  id: string;
  patient: { id: string; name: string; email: string; phone?: string };
  /** The slot held. */
  date: Date;
  offeredAt: Date;
  expiresAt: Date;
  /** Unique among the live appointments and offers. */
  bookingCode: string;
}

/**
 * Waiting-list offers as `slotFreed` leaves them (`offerDocument` holding the slot, and the record
 * that the slot was offered to the patient, its e-mail event already published), with no claim: once
 * `expiresAt` has passed they are what the sweep drops, tells the patient about and offers to the
 * next in line. Answers how many offers were written.
 */
export async function seedOffers(
  models: AppointmentModels,
  waitlist: WaitlistModels,
  offers: readonly SeedOffer[],
  batchSize?: number,
): Promise<number> {
  const slotOffer = (o: SeedOffer) => ({
    id: o.id,
    date: o.date,
    expiresAt: o.expiresAt,
    patientId: o.patient.id,
  });
  // The e-mailed token is never used here: any hash of a secret nobody has.
  const tokenHash = (o: SeedOffer) => createHash('sha256').update(`seed-offer-${o.id}`).digest('hex');
  await insertPublished(
    models.Appointment,
    offers.map((o) => offerDocument(slotOffer(o), o.patient, tokenHash(o), o.bookingCode, o.offeredAt)),
    batchSize,
  );
  return insertPublished(
    waitlist.WaitlistOffer,
    offers.map((o) => offerRecord(slotOffer(o), o.offeredAt)),
    batchSize,
  );
}

/** A stable ObjectId-shaped id (24 hex digits) from a seed name, for ids the services parse. */
export const seedObjectId = (name: string) => createHash('sha1').update(name).digest('hex').slice(0, 24);
