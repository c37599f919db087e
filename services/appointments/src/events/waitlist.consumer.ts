import { appointmentCancelled, appointmentDeleted } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { WaitlistService } from '../domain/waitlist.service';

/**
 * The service's own events that free a grid slot (a cancellation of any kind, a reschedule away
 * from it, a deletion) offer it to the day's waiting list. A no-show frees nothing worth offering:
 * its slot is over. A redelivered event finds the slot held already and offers nothing.
 */
export function waitlistHandlers(waitlist: WaitlistService) {
  const freed = async (date: string) => {
    await waitlist.slotFreed(new Date(date));
  };
  return [
    on(appointmentCancelled, (event) => freed(event.data.date)),
    on(appointmentDeleted, (event) => freed(event.data.date)),
  ] as const;
}
