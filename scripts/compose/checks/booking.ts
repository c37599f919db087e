/**
 * A patient booking their own slot (`POST /dates {date}`) the way a careful client does when the
 * network fails: the same request again until it is answered; a refusal after an unanswered try
 * is checked with a read (`GET /dates/currentDate`), because the unanswered try may have booked.
 */
import type { BookingResponse, CurrentDateView } from '@crm/contracts';
import { sleep } from '@crm/testing';
import { type Answer, call, callUntilAnswered, describe, expectStatus, isTransient, NoAnswer } from './http';
import type { ComposeTarget } from './target';

export interface Booking {
  appointmentId: string;
  slot: string;
  bookingCode?: string;
  /** Requests made (1 when the first was answered with the booking). */
  attempts: number;
  /** The booking was learnt from a read after an unanswered try, not from a 201. */
  recoveredByRead: boolean;
}

/** The 409 of a slot someone else holds; the 409 "you already have one" carries that `appointment`. */
const slotTaken = (answer: Answer): boolean => answer.status === 409 && !answer.body?.appointment;

export async function currentAppointment(t: ComposeTarget, token: string): Promise<CurrentDateView> {
  const answer = await callUntilAnswered(() => call(t, 'GET', '/dates/currentDate', { token }));
  return expectStatus(answer, 200, 'current appointment').body;
}

/**
 * Books the first slot `nextSlot` gives, and the next one whenever the slot was taken meanwhile.
 * Keeps trying while unanswered until `deadlineMs` has passed.
 */
export async function bookOwnSlot(
  t: ComposeTarget,
  token: string,
  nextSlot: () => Promise<string>,
  deadlineMs = 120_000,
): Promise<Booking> {
  const deadline = Date.now() + deadlineMs;
  let slot = await nextSlot();
  let attempts = 0;
  let uncertain = false;
  for (;;) {
    attempts += 1;
    let answer: Answer | undefined;
    try {
      answer = await call(t, 'POST', '/dates', { token, body: { date: slot } });
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
    }
    if (!answer || isTransient(answer)) {
      // The service may have booked before the answer was lost (or before it went away).
      uncertain = true;
      if (Date.now() > deadline)
        throw new Error(
          `booking unanswered after ${attempts} tries${answer ? ` (${describe(answer)})` : ''}`,
        );
      await sleep(1_000);
      continue;
    }
    if (answer.status === 201) {
      const body = answer.body as BookingResponse;
      return {
        appointmentId: body.id,
        slot: body.date,
        bookingCode: body.bookingCode,
        attempts,
        recoveredByRead: false,
      };
    }
    if (answer.status === 409 && uncertain) {
      const current = await currentAppointment(t, token);
      if (current.date !== null)
        return {
          appointmentId: current.id,
          slot: current.date,
          bookingCode: current.bookingCode,
          attempts,
          recoveredByRead: true,
        };
    }
    if (slotTaken(answer)) {
      slot = await nextSlot();
      continue;
    }
    throw new Error(`booking of ${slot}: ${describe(answer)}`);
  }
}
