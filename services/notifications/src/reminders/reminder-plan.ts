/**
 * When an appointment's reminder goes out, and what it says about cancelling. The reminder is
 * meant to let the patient cancel while it is still refunded: when the appointment is booked far
 * enough ahead, it is due `beforeDeadlineMs` before the refund window closes. Otherwise (booked
 * inside the window, or too close to it) it is due `lateLeadMs` before the start and says that a
 * cancellation is no longer refunded; none when even that moment is less than `minNoticeMs` after
 * the booking (the confirmation has just said it all).
 */
export interface ReminderPolicy {
  beforeDeadlineMs: number;
  lateLeadMs: number;
  minNoticeMs: number;
}

export function reminderDueAt(
  start: Date,
  bookedAt: Date,
  refundWindowMs: number,
  policy: ReminderPolicy,
  refundForfeited = false,
): Date | undefined {
  const booked = bookedAt.getTime();
  const early = start.getTime() - refundWindowMs - policy.beforeDeadlineMs;
  if (!refundForfeited && early - booked >= policy.minNoticeMs) return new Date(early);
  const late = start.getTime() - policy.lateLeadMs;
  return late - booked >= policy.minNoticeMs ? new Date(late) : undefined;
}

/** The refund deadline when cancelling is still refunded at `now`; undefined when it no longer is. */
export function refundDeadline(
  start: Date,
  now: Date,
  refundWindowMs: number,
  refundForfeited = false,
): Date | undefined {
  const deadline = new Date(start.getTime() - refundWindowMs);
  return !refundForfeited && now < deadline ? deadline : undefined;
}
