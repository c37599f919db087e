import type { Appointment, UnconfirmedHolds } from './appointment';
import type { LifecycleService } from './lifecycle.service';
import type { PatientReadModel } from './patient';

export interface ReleasePolicy {
  /** Released this long after booking (default 24 h)… */
  holdMs: number;
  /** …or this long before the start (default 2 h), whichever comes first. */
  beforeStartMs: number;
}

/**
 * Slots held by accounts nobody confirmed are released (docs/product/patient-area.md#unconfirmed-accounts): a
 * patient's own web booking is cancelled, with an e-mail, when their account is still unconfirmed 24 hours
 * after booking or 2 hours before the slot, whichever comes first. Staff and kiosk bookings are never
 * released, nor patients whose confirmation the auth service has not announced, nor bookings made when the
 * slot was already that close (the release moment had passed before they were made). Each release is the
 * lifecycle's one-insert end, so two replicas sweeping at once release an appointment once.
 */
/**
 * Booked when the slot was already less than `beforeStartMs` away: the patient never had the time
 * to confirm that the rule gives, and was just told the booking is confirmed, so it is kept.
 */
export const bookedInsideWindow = (
  appointment: Pick<Appointment, 'date' | 'createdAt'>,
  policy: Pick<ReleasePolicy, 'beforeStartMs'>,
): boolean => appointment.date.getTime() - appointment.createdAt.getTime() <= policy.beforeStartMs;

export class UnconfirmedRelease {
  constructor(
    private readonly holds: UnconfirmedHolds,
    private readonly patients: Pick<PatientReadModel, 'unconfirmedAmong'>,
    private readonly lifecycle: LifecycleService,
    private readonly policy: ReleasePolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async sweep(): Promise<number> {
    const now = this.clock().getTime();
    const candidates = await this.holds.candidates(
      new Date(now - this.policy.holdMs),
      new Date(now + this.policy.beforeStartMs),
    );
    const unconfirmed = await this.patients.unconfirmedAmong(candidates.map((a) => a.patientId));
    let released = 0;
    for (const appointment of candidates) {
      if (!unconfirmed.has(appointment.patientId)) continue;
      if (bookedInsideWindow(appointment, this.policy)) continue;
      const outcome = await this.lifecycle.attempt(appointment, {
        to: 'cancelled',
        initiator: 'system',
        endedBecause: 'unconfirmedAccount',
      });
      if ('done' in outcome) released++;
    }
    return released;
  }
}
