import type { EventEnvelope } from '@crm/contracts';
import type { Appointment } from './appointment';
import type { Patient } from './patient';

/** A patient waiting for a slot of one day (Atlantic/Canary `YYYY-MM-DD`) to free up. */
export interface WaitlistEntry {
  patientId: string;
  day: string;
  joinedAt: Date;
}

/** A freed slot held for one patient of the waiting list until `expiresAt` (the e-mailed link claims it). */
export interface SlotOffer {
  id: string;
  date: Date;
  expiresAt: Date;
  patientId: string;
}

/** The waiting lists: one entry per patient and day, in the order they joined. */
export interface WaitlistRepository {
  /** Joins the day's line; false when the patient is on it already. */
  join(entry: WaitlistEntry): Promise<boolean>;
  /** Leaves it; false when the patient was not on it. */
  leave(patientId: string, day: string): Promise<boolean>;
  /** The patient's entries from `fromDay` on, by day. */
  entriesOf(patientId: string, fromDay: string): Promise<WaitlistEntry[]>;
  /** The day's line, first come first. */
  line(day: string): Promise<WaitlistEntry[]>;
  /** Whether this patient was offered this slot before (each slot is offered once per patient). */
  wasOffered(date: Date, patientId: string): Promise<boolean>;
  /** Remembers the offer and stores its event (the e-mail) in the same insert. */
  recordOffer(offer: SlotOffer, event: EventEnvelope): Promise<void>;
  /**
   * Takes the one right to claim an offer (an insert under a unique key: FerretDB's updates are not
   * atomic, so two claims must not both update the offer); false when another claim has it.
   */
  startClaim(offer: SlotOffer): Promise<boolean>;
  /** Gives the right back after a claim that failed, so the patient may try again. */
  abandonClaim(offer: SlotOffer): Promise<void>;
  /** Remembers, once, that the offer ended unclaimed, with its event (the e-mail) in the same insert. */
  recordExpiry(offer: SlotOffer, event: EventEnvelope): Promise<boolean>;
  /** The patient's offers that ended unclaimed, for slots from `from` on. */
  expiredOffersOf(patientId: string, from: Date): Promise<SlotOffer[]>;
  /** Drops the entries of days before `day`. */
  dropBefore(day: string): Promise<number>;
  /** Drops every entry and offer record of the patient (account erasure). */
  forget(patientId: string): Promise<void>;
}

/**
 * Offers as documents of the appointments collection (kind `offer`): the slot's unique key holds
 * the slot, so neither a booking nor another offer can take it while the offer lives.
 */
export interface OfferHolds {
  /** Holds `date` for the patient; false when the slot is taken (booked, held, offered). */
  hold(offer: SlotOffer, patient: Patient, tokenHash: string): Promise<boolean>;
  findByToken(tokenHash: string): Promise<SlotOffer | undefined>;
  /** The patient's live offers. */
  liveOffersOf(patientId: string): Promise<SlotOffer[]>;
  /** The offer becomes the patient's booked appointment, with `event`; 'patientBusy' if they hold one. */
  claim(
    id: string,
    event: (booked: Appointment) => EventEnvelope,
  ): Promise<Appointment | 'patientBusy' | 'gone'>;
  /** The offer becomes a reschedule's hold of `from` (the caller's current appointment). */
  toMoveHold(id: string, from: Appointment, refundForfeited: boolean): Promise<'held' | 'moving' | 'gone'>;
  /** Offers that expired before `before`. */
  expiredBefore(before: Date): Promise<SlotOffer[]>;
  /** Frees the slot; false when the offer was gone already (claimed, or dropped by another replica). */
  drop(id: string): Promise<boolean>;
}
