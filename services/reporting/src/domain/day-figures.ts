import {
  CERTIFICATE_KEY,
  COUNTERS,
  MONEY_FLOWS,
  MONEY_KEY,
  pendingCentsOf,
  zeroCounters,
  type Counter,
  type Counters,
  type Fact,
  type PendingInput,
} from './facts';
import type { MoneyMoved } from './summary';

/** A day's figures as the `days` collection stores them (without `computedAt`). */
export interface DayFigures extends Counters {
  revenueByCertificate: Array<{ type: string; revenue: number }>;
  currency?: string;
  money: MoneyMoved[];
  pendingCents: number;
}

/** What a day's figures read of one of its facts. */
export type DayFactInput = PendingInput & Pick<Fact, 'counts'>;

/**
 * The figures of one day: the sum of its facts' `counts` (a record of an appointment that ended as
 * a no-show bills nobody, whichever of the two facts came first) and what its appointments still
 * owe. `dayFacts` are the facts of that day, `money` the money facts of its appointments (whatever
 * day that money moved). The lists come out sorted, so equal figures compare equal.
 */
export function dayFiguresOf(
  dayFacts: readonly DayFactInput[],
  money: readonly PendingInput[],
  fallbackPriceCents: number,
): DayFigures {
  const counters = zeroCounters();
  const byCertificate = new Map<string, number>();
  const moved = new Map<string, MoneyMoved>();
  let currency: string | undefined;
  const noShows = new Set(dayFacts.filter((f) => f.kind === 'noShow').map((f) => f.appointmentId));
  for (const fact of dayFacts) {
    if (fact.kind === 'record' && noShows.has(fact.appointmentId)) continue;
    for (const { k, v } of fact.counts ?? []) {
      // `<day>|<counter>`, `<day>|cert|<currency>|<type>` or `<day>|money|<currency>|<flow>|<method>`.
      const [, name, keyCurrency, ...rest] = k.split('|');
      if (name === CERTIFICATE_KEY) {
        const type = rest.join('|');
        byCertificate.set(type, (byCertificate.get(type) ?? 0) + v);
        currency ??= keyCurrency;
      } else if (name === MONEY_KEY) {
        const [flow, method] = rest;
        if (!(MONEY_FLOWS as readonly string[]).includes(flow!) || !method) continue;
        const key = `${keyCurrency}|${flow}|${method}`;
        const entry = moved.get(key) ?? {
          currency: keyCurrency!,
          flow: flow as MoneyMoved['flow'],
          method,
          cents: 0,
        };
        entry.cents += v;
        moved.set(key, entry);
      } else if ((COUNTERS as readonly string[]).includes(name!)) {
        counters[name as Counter] += v;
      }
    }
  }
  const appointmentFacts = dayFacts.filter((f) => !(MONEY_FLOWS as readonly string[]).includes(f.kind));
  return {
    ...counters,
    revenueByCertificate: [...byCertificate]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([type, revenue]) => ({ type, revenue })),
    ...(currency ? { currency } : {}),
    money: [...moved].sort(([a], [b]) => a.localeCompare(b)).map(([, entry]) => entry),
    pendingCents: pendingCentsOf(appointmentFacts, money, fallbackPriceCents),
  };
}
