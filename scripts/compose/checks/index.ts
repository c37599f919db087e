/**
 * The product checks `npm run test:compose` runs against the product started by docker compose:
 * only HTTP, through the gateway and Mailpit's API. See README.md here for how to call them.
 */
export type { CheckResult, ComposeTarget, StaffName } from './target';
export { productJourney, type JourneyOutcome, type JourneySnapshot } from './journey';
export {
  bookMany,
  verifyBookings,
  type BookingCounts,
  type BookManyOptions,
  type BookManyOutcome,
} from './book-many';
export { countMails, mailBurst, type MailBurst, type MailCounts, type MailKind } from './mail-burst';
export { contestedSlots, type ContestOutcome, type SlotRace } from './contested';
export { stillThere } from './still-there';
