import { createHash, randomBytes } from 'node:crypto';
import {
  appointmentBooked,
  waitlistOfferExpired,
  waitlistSlotOffered,
  type WaitlistEntryView,
  type WaitlistOfferView,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, isDuplicateKey } from '@crm/server-kit';
import { eventData, offerExpiredData, slotOfferedData } from '../events/appointment.payloads';
import type { Actor, Appointment, AppointmentRepository } from './appointment';
import type { Caller } from './booking.service';
import {
  moveUnderWay,
  notMovable,
  notOnWaitlist,
  offerGone,
  patientNotFound,
  selfAlreadyBooked,
  waitlistDayClosed,
  waitlistDayPast,
} from './booking.messages';
import type { PatientDirectory } from './patient';
import type { RescheduleService } from './reschedule.service';
import { PUBLIC_HOLIDAYS_ONLY, type CentreCalendar } from './centre-calendar';
import { localDayOf, slotRefusal, slotsOfDay } from './slot-rules';
import type { OfferHolds, SlotOffer, WaitlistRepository } from './waitlist';

export interface WaitlistOptions {
  /** How long an offered slot is held for its patient. */
  offerMs: number;
  /** An expired offer is dropped this long after its end, so a claim made at the last second is not raced. */
  dropGraceMs?: number;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * The waiting list (README, "Waiting list"): patients line up for a day; when a slot of that day
 * frees up (a cancellation, a deletion, a reschedule away from it), the first in line who was not
 * offered that slot before gets it held for `offerMs` and an e-mail whose link claims it. Unclaimed,
 * the offer is dropped and the slot goes to the next. The hold is a document under the slot's
 * unique key, so one slot never ends up with two patients.
 */
export class WaitlistService {
  constructor(
    private readonly entries: WaitlistRepository,
    private readonly offers: OfferHolds,
    private readonly appointments: AppointmentRepository,
    private readonly patients: Pick<PatientDirectory, 'find' | 'known'>,
    private readonly moves: RescheduleService,
    private readonly options: WaitlistOptions,
    private readonly clock: () => Date = () => new Date(),
    private readonly calendar: CentreCalendar = PUBLIC_HOLIDAYS_ONLY,
  ) {}

  /** Joins the day's line; `created` is false when the patient was on it already. */
  async join(caller: Caller, day: string): Promise<{ entry: WaitlistEntryView; created: boolean }> {
    const today = localDayOf(this.clock());
    if (day < today) throw waitlistDayPast();
    if (slotsOfDay(day, await this.calendar.closures()).length === 0) throw waitlistDayClosed();
    // An offer is made outside any request, from the read model: make sure it knows the patient now
    // (a patient who just signed up may join before auth's event about them has arrived).
    const patient = await this.patients.find(caller.id, { bearerToken: caller.bearerToken, self: true });
    if (!patient) throw patientNotFound('day');
    const created = await this.entries.join({ patientId: caller.id, day, joinedAt: this.clock() });
    const entry = (await this.entriesOf(caller)).find((e) => e.day === day);
    // Only a leave racing this join can remove it in between.
    if (!entry) throw notOnWaitlist();
    return { entry, created };
  }

  async leave(caller: Actor, day: string): Promise<void> {
    if (!(await this.entries.leave(caller.id, day))) throw notOnWaitlist();
  }

  /**
   * The caller's entries from today on, with their place in line, any slot held for them, and the
   * slots held for them that they let pass (ended, or past their end and not swept yet).
   */
  async entriesOf(caller: Actor): Promise<WaitlistEntryView[]> {
    const now = this.clock();
    const today = localDayOf(now);
    const mine = await this.entries.entriesOf(caller.id, today);
    const held = await this.offers.liveOffersOf(caller.id);
    const live = held.filter((o) => o.expiresAt > now);
    const missed = [
      ...held.filter((o) => o.expiresAt <= now),
      ...(await this.entries.expiredOffersOf(caller.id, now)),
    ];
    const view = (o: SlotOffer): WaitlistOfferView => ({
      date: o.date.toISOString(),
      expiresAt: o.expiresAt.toISOString(),
    });
    return Promise.all(
      mine.map(async (entry) => {
        const line = await this.entries.line(entry.day);
        const offer = live.find((o) => localDayOf(o.date) === entry.day);
        const missedThatDay = uniqueById(missed.filter((o) => localDayOf(o.date) === entry.day));
        return {
          day: entry.day,
          joinedAt: entry.joinedAt.toISOString(),
          position: line.findIndex((e) => e.patientId === caller.id) + 1,
          ...(offer ? { offer: view(offer) } : {}),
          ...(missedThatDay.length > 0 ? { missedOffers: missedThatDay.map(view) } : {}),
        };
      }),
    );
  }

  /** The caller's live offer behind an e-mailed token (404 for anyone else's, or once it is over). */
  async offerFor(caller: Actor, token: string): Promise<SlotOffer> {
    const offer = await this.offers.findByToken(hashOf(token));
    if (!offer || offer.patientId !== caller.id || offer.expiresAt <= this.clock()) throw offerGone();
    return offer;
  }

  /**
   * Books the offered slot for the caller; when they hold an appointment already, moves it there
   * (one step, as a reschedule: they never hold two, and keep the old one if the move fails).
   */
  async claim(caller: Actor, token: string): Promise<Appointment> {
    const offer = await this.offerFor(caller, token);
    if (!(await this.entries.startClaim(offer))) throw offerGone();
    try {
      const booked = await this.bookOrMove(caller, offer);
      await this.entries.leave(caller.id, localDayOf(offer.date));
      return booked;
    } catch (error) {
      await this.entries.abandonClaim(offer);
      throw error;
    }
  }

  private async bookOrMove(caller: Actor, offer: SlotOffer): Promise<Appointment> {
    const current = await this.appointments.findHeldBy(caller.id);
    if (current) {
      if (current.status !== 'booked' || current.walkIn) throw notMovable();
      const held = await this.offers.toMoveHold(
        offer.id,
        current,
        await this.moves.forfeitsRefund(caller, current),
      );
      if (held === 'moving') throw moveUnderWay();
      if (held === 'gone') throw offerGone();
      return this.moves.finishMove(caller, current, offer.id);
    }
    const claimed = await this.offers.claim(offer.id, (a) =>
      createEnvelope(appointmentBooked, { ...eventData(a, caller), by: caller }, correlationIdOrNew()),
    );
    if (claimed === 'gone') throw offerGone();
    if (claimed === 'patientBusy') throw selfAlreadyBooked();
    return claimed;
  }

  /** A slot freed up: offered to the first in its day's line who was not offered it yet. */
  async slotFreed(date: Date): Promise<SlotOffer | undefined> {
    const now = this.clock();
    if (slotRefusal(date, now, await this.calendar.closures())) return undefined;
    for (const entry of await this.entries.line(localDayOf(date))) {
      if (await this.entries.wasOffered(date, entry.patientId)) continue;
      const patient = await this.patients.known(entry.patientId);
      if (!patient) continue;
      const offer: SlotOffer = {
        id: this.appointments.newId(),
        date,
        expiresAt: new Date(now.getTime() + this.options.offerMs),
        patientId: entry.patientId,
      };
      const token = randomBytes(32).toString('base64url');
      // Taken meanwhile (booked, or offered by another replica): nothing to offer.
      if (!(await this.offers.hold(offer, patient, hashOf(token)))) return undefined;
      const event = createEnvelope(
        waitlistSlotOffered,
        slotOfferedData(offer, patient, token),
        correlationIdOrNew(),
      );
      try {
        await this.entries.recordOffer(offer, event);
        return offer;
      } catch (error) {
        await this.offers.drop(offer.id);
        if (!isDuplicateKey(error)) throw error;
      }
    }
    return undefined;
  }

  /** The patient learns that the slot held for them is gone and will not be offered again. */
  private async tellExpired(offer: SlotOffer): Promise<void> {
    const patient = await this.patients.known(offer.patientId);
    if (!patient) return;
    await this.entries.recordExpiry(
      offer,
      createEnvelope(waitlistOfferExpired, offerExpiredData(offer, patient), correlationIdOrNew()),
    );
  }

  /** A patient who erased their account: off every line, and any slot held for them goes to the next. */
  async forget(patientId: string): Promise<void> {
    await this.entries.forget(patientId);
    for (const offer of await this.offers.liveOffersOf(patientId))
      if (await this.offers.drop(offer.id)) await this.slotFreed(offer.date);
  }

  /** Drops offers past their end (each freed slot goes to the next in line) and days gone by. */
  async sweep(): Promise<{ expired: number; reoffered: number }> {
    const now = this.clock();
    let expired = 0;
    let reoffered = 0;
    const cutoff = new Date(now.getTime() - (this.options.dropGraceMs ?? 5_000));
    for (const offer of await this.offers.expiredBefore(cutoff)) {
      if (!(await this.offers.drop(offer.id))) continue;
      expired++;
      await this.tellExpired(offer);
      if (await this.slotFreed(offer.date)) reoffered++;
    }
    await this.entries.dropBefore(localDayOf(now));
    return { expired, reoffered };
  }
}

const uniqueById = (offers: SlotOffer[]): SlotOffer[] =>
  offers.filter((offer, index) => offers.findIndex((o) => o.id === offer.id) === index);
