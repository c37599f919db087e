import { recordCreated, recordUpdated, type EventData } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { Logger } from '@crm/server-kit';
import type { LifecycleService } from '../domain/lifecycle.service';

/**
 * A clinical record saved for an appointment means the patient was seen: the appointment becomes
 * `attended` (from booked or checked in) — but only from its check-in window on. A record saved
 * earlier (a doctor preparing it) leaves the appointment as it is, and a later save of the same
 * record, once the window is open, marks it then. Idempotent twice over: the consumer skips event
 * ids it has processed, and an appointment that has ended already is left alone.
 */
export function recordAttendedHandlers(lifecycle: LifecycleService, logger: Logger) {
  const saved = async ({ dateId, id: recordId }: EventData<typeof recordCreated>) => {
    const outcome = await lifecycle.attendedByRecord(dateId, recordId);
    if ('missing' in outcome) logger.warn({ dateId, recordId }, 'record for an unknown appointment');
    else if ('refused' in outcome)
      logger.info(
        { dateId, status: outcome.current.status, refused: outcome.refused },
        'record saved: appointment left as is',
      );
  };
  return [
    on(recordCreated, (event) => saved(event.data)),
    on(recordUpdated, (event) => saved(event.data)),
  ] as const;
}
