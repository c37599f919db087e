import { recordCreated, recordUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';

interface ListingRepair {
  refreshListing(recordId: string): Promise<void>;
}

/**
 * The records' own events keep the listing whole. A save refreshes the listing right after it
 * stores the revision; a process that dies in between (a restart, a crash) leaves the revision's
 * event in the outbox, and its delivery here lists the record. Refreshing is idempotent and never
 * moves the listing back, so redeliveries and out-of-order events are harmless.
 */
export function recordListingHandlers(listing: ListingRepair) {
  return [
    on(recordCreated, (event) => listing.refreshListing(event.data.id)),
    on(recordUpdated, (event) => listing.refreshListing(event.data.id)),
  ] as const;
}
