/**
 * Free appointment slots, found as the booking page finds them: `GET /dates/slots?day=` day after
 * day (the centre's days, Atlantic/Canary; closed days have none).
 */
import type { DaySlotsView } from '@crm/contracts';
import { call, callUntilAnswered, expectStatus } from './http';
import type { ComposeTarget } from './target';

const DAY_MS = 86_400_000;
const centreDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Atlantic/Canary' });

export interface SlotSearch {
  /** The first day looked at, counted from today (default 2: clear of today's no-show sweep). */
  daysAhead?: number;
  /** Give up after this many days (default 90). */
  maxDays?: number;
  /** Slots to leave out (handed to someone else already). */
  exclude?: ReadonlySet<string>;
}

/** `count` free slots (ISO instants), earliest first. */
export async function freeSlots(t: ComposeTarget, count: number, search: SlotSearch = {}): Promise<string[]> {
  const { daysAhead = 2, maxDays = 90, exclude = new Set<string>() } = search;
  const found: string[] = [];
  const seenDays = new Set<string>();
  for (let offset = daysAhead; offset < daysAhead + maxDays && found.length < count; offset += 1) {
    const day = centreDay.format(new Date(Date.now() + offset * DAY_MS));
    if (seenDays.has(day)) continue;
    seenDays.add(day);
    const answer = await callUntilAnswered(() => call(t, 'GET', `/dates/slots?day=${day}`));
    const view = expectStatus(answer, 200, `free slots of ${day}`).body as DaySlotsView;
    if (!view.open) continue;
    for (const slot of view.slots) if (!exclude.has(slot) && found.length < count) found.push(slot);
  }
  if (found.length < count) throw new Error(`only ${found.length} of ${count} free slots in ${maxDays} days`);
  return found;
}

/** The centre's day (`YYYY-MM-DD`) of an instant. */
export const dayOf = (instant: string): string => centreDay.format(new Date(instant));
