import { upcomingSlots } from '../services/appointments/src/domain/slot-rules';

/**
 * Hands out distinct bookable appointment slots (ISO instants), starting `daysAhead` days from now
 * (the centre's opening hours and closed days as the appointments service applies them). A test file
 * picks its own `daysAhead`, so files never compete for a slot unless they mean to.
 */
export function slotAllocator(daysAhead = 2) {
  const slots = upcomingSlots(new Date(Date.now() + daysAhead * 86_400_000));
  return { next: (): string => slots.next().value!.toISOString() };
}
