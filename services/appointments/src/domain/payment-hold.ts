import type { OnlinePaymentMode } from '@crm/contracts';
import type { Appointment, AppointmentRepository } from './appointment';
import type { LifecycleService } from './lifecycle.service';

export type HoldOutcome = 'paid' | 'released';

/** Storage of the holds' outcomes (one insert per appointment decides). */
export interface PaymentHolds {
  /** Records the outcome unless one is recorded already; answers the one that counts. */
  decide(appointmentId: string, outcome: HoldOutcome, at: Date): Promise<HoldOutcome>;
  /** Whether a payment succeeded for any of these appointment ids. */
  paidAmong(appointmentIds: string[]): Promise<boolean>;
  /** Booked appointments (not checked in) whose hold ended before `before` and is not decided yet. */
  due(before: Date, page?: number): Promise<Appointment[]>;
}

export interface PaymentHoldPolicy {
  /** The centre profile's `payments.online` (cached; `optional` when it cannot be read). */
  mode(): Promise<OnlinePaymentMode>;
  /** `PAYMENT_HOLD_MINUTES` in milliseconds. */
  holdMs: number;
}

/** A hold is released this long after its end: a payment finishing at that instant still counts. */
export const PAYMENT_HOLD_GRACE_MS = 5_000;
/** How far back a moved appointment's payments are looked for (moves of moves). */
const MAX_MOVES = 20;

/**
 * The slot hold of an unpaid booking (docs/product/payments.md#slot-hold). While the centre profile's
 * `payments.online` is `required`, a patient's own web booking carries `paymentDueBy` (now +
 * `PAYMENT_HOLD_MINUTES`); a move keeps it. `payments.payment.succeeded.v1` for the appointment (or
 * one it was moved from) records it paid; the sweep releases the others once their hold is over —
 * the lifecycle's cancellation without `by`, `endedBecause: 'unpaid'` — and the cancelled event
 * offers the slot to the waiting list like any cancellation. A payment and the sweep meeting at the
 * end of the hold: the first recorded outcome wins; a payment that lost is given back by the
 * payments service (it sees the release).
 */
export class PaymentHoldRelease {
  constructor(
    private readonly holds: PaymentHolds,
    private readonly appointments: Pick<AppointmentRepository, 'findById'>,
    private readonly lifecycle: LifecycleService,
    private readonly policy: PaymentHoldPolicy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** When a booking made now by a patient on the web must be paid by, or undefined (not held). */
  async dueByForNewBooking(): Promise<Date | undefined> {
    if ((await this.policy.mode()) !== 'required') return undefined;
    return new Date(this.clock().getTime() + this.policy.holdMs);
  }

  /** `payments.payment.succeeded.v1`: the appointment it paid keeps its slot. */
  async paid(appointmentId: string): Promise<HoldOutcome> {
    return this.holds.decide(appointmentId, 'paid', this.clock());
  }

  /** Whether the hold of this appointment is paid (a payment for it or for one it was moved from). */
  async isPaid(appointment: Appointment): Promise<boolean> {
    return this.holds.paidAmong(await this.lineage(appointment));
  }

  /** Releases the holds that ended unpaid; returns how many. Safe with several replicas. */
  async sweep(): Promise<number> {
    const now = this.clock();
    let released = 0;
    for (const appointment of await this.holds.due(new Date(now.getTime() - PAYMENT_HOLD_GRACE_MS))) {
      if (await this.isPaid(appointment)) continue;
      if ((await this.holds.decide(appointment.id, 'released', now)) !== 'released') continue;
      const outcome = await this.lifecycle.attempt(appointment, {
        to: 'cancelled',
        initiator: 'system',
        endedBecause: 'unpaid',
      });
      if ('done' in outcome) released++;
    }
    return released;
  }

  /** The appointment's id and those of the appointments it was moved from, newest first. */
  private async lineage(appointment: Appointment): Promise<string[]> {
    const ids = [appointment.id];
    let from = appointment.rescheduledFrom;
    while (from && ids.length <= MAX_MOVES) {
      ids.push(from.id);
      from = (await this.appointments.findById(from.id))?.rescheduledFrom;
    }
    return ids;
  }
}
