import {
  appointmentAttended,
  appointmentBooked,
  appointmentCancelled,
  appointmentCheckedIn,
  appointmentDeleted,
  appointmentNoShow,
  appointmentRescheduled,
  configCentreUpdated,
  paymentSucceeded,
  recordCreated,
  recordUpdated,
  refundIssued,
} from '@crm/contracts';
import { on, type ProcessedEventStore } from '@crm/event-bus';
import type { ReportingService } from '../domain/reporting.service';

/**
 * The appointments', records' and payments' events → facts; the centre profile's → the refund
 * window is read again.
 */
export function reportingHandlers(reporting: ReportingService, onCentreUpdated: () => void) {
  return [
    on(appointmentBooked, (e) => reporting.appointmentEvent('booked', e.data, e.occurredAt)),
    on(appointmentRescheduled, (e) => reporting.appointmentEvent('booked', e.data, e.occurredAt)),
    on(appointmentCancelled, (e) => reporting.appointmentEvent('cancelled', e.data, e.occurredAt)),
    on(appointmentDeleted, (e) => reporting.appointmentEvent('deleted', e.data, e.occurredAt)),
    on(appointmentCheckedIn, (e) => reporting.appointmentEvent('checkedIn', e.data, e.occurredAt)),
    on(appointmentAttended, (e) => reporting.appointmentEvent('attended', e.data, e.occurredAt)),
    on(appointmentNoShow, (e) => reporting.appointmentEvent('noShow', e.data, e.occurredAt)),
    on(recordCreated, (e) => reporting.recordEvent(e.data, e.occurredAt)),
    on(recordUpdated, (e) => reporting.recordEvent(e.data, e.occurredAt)),
    on(paymentSucceeded, (e) => reporting.moneyEvent('taken', e.data, e.data.paidAt, e.occurredAt)),
    on(refundIssued, (e) => reporting.moneyEvent('refunded', e.data, e.data.refundedAt, e.occurredAt)),
    on(configCentreUpdated, () => onCentreUpdated()),
  ] as const;
}

/**
 * No processed-events records: storing a fact is itself idempotent (its id comes from what it is
 * about, under the unique `_id`; a record's fact is replaced only by a newer revision), and a
 * second write per event would halve how fast the read model catches up.
 */
export const factsAreIdempotent: ProcessedEventStore = {
  has: async () => false,
  markProcessed: async () => undefined,
};

/** The subscription on `<QUEUE_PREFIX>.reporting.facts`. */
export function reportingSubscription(
  reporting: ReportingService,
  onCentreUpdated: () => void,
  queuePrefix: string,
) {
  return {
    queue: `${queuePrefix}.reporting.facts`,
    events: reportingHandlers(reporting, onCentreUpdated),
    idempotency: factsAreIdempotent,
    // Up to 200 events at once: their facts are inserted together (data/facts.repository.ts).
    prefetch: 200,
  };
}
