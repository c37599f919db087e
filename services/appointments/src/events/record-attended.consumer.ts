import { recordCreated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { Logger } from '@crm/server-kit';
import type { LifecycleService } from '../domain/lifecycle.service';

/**
 * A clinical record saved for an appointment means the patient was seen: the appointment becomes
 * `attended` (from booked or checked in). Idempotent twice over: the consumer skips event ids it has
 * processed, and an appointment that has ended already (attended, cancelled, a no-show) is left alone.
 */
export function recordAttendedHandlers(lifecycle: LifecycleService, logger: Logger) {
  return [
    on(recordCreated, async (event) => {
      const { dateId, id: recordId } = event.data;
      const outcome = await lifecycle.attendedByRecord(dateId, recordId);
      if ('missing' in outcome) logger.warn({ dateId, recordId }, 'record for an unknown appointment');
      else if ('refused' in outcome)
        logger.info(
          { dateId, status: outcome.current.status },
          'record for an ended appointment: left as is',
        );
    }),
  ] as const;
}
