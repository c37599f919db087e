/**
 * `@crm/web-kit/calendar`: the month calendar, the slot buttons beside it, and their styles. Not on the main
 * entry: it brings moment-timezone (through ./time), which the shell's "/" must not load.
 */
export { Calendar, MONTHS_AHEAD } from './Calendar';
export type { CalendarProps } from './Calendar';
export { SlotGrid } from './SlotGrid';
export type { SlotGridProps } from './SlotGrid';
