import { useId, useMemo, useState } from 'react';
import type { CentreClosures } from '@crm/contracts/centre-calendar';
import {
  closedReason,
  longDay,
  MONTH_NAMES,
  monthGrid,
  monthOf,
  todayAtCentre,
  WEEKDAY_INITIALS,
  WEEKDAY_NAMES,
  type Day,
} from '../time/canary-time';
import './calendar.css';

/** How far ahead a calendar goes, in months. */
export const MONTHS_AHEAD = 12;

export interface CalendarProps {
  /** Accessible name of the calendar region; without it, the region is named by its month title. */
  label?: string;
  selected: Day | null;
  onSelect(day: Day): void;
  /** The centre profile's closures; public holidays are marked closed without them. */
  closures?: CentreClosures | undefined;
}

const monthIndex = (view: { year: number; month: number }) => view.year * 12 + view.month;

/**
 * Month view with previous/next month (from this month up to a year ahead), Spanish month names and
 * the D L M M J V S header (docs/product/booking.md#booking-calendar). Weekends are painted red; past days
 * are disabled. Days are Atlantic/Canary dates, whatever the browser's zone.
 */
export function Calendar({ label, selected, onSelect, closures }: CalendarProps) {
  const today = todayAtCentre();
  const start = monthOf(today);
  const [view, setView] = useState(start);
  const grid = useMemo(() => monthGrid(view.year, view.month), [view]);
  const titleId = useId();
  const offset = monthIndex(view) - monthIndex(start);
  const move = (delta: -1 | 1) => {
    const next = monthIndex(view) + delta;
    setView({ year: Math.floor(next / 12), month: next % 12 });
  };

  return (
    <section
      className="wk-calendar"
      aria-label={label}
      aria-labelledby={label === undefined ? titleId : undefined}
    >
      <div className="wk-calendar__header">
        <button
          type="button"
          className="wk-calendar__nav"
          onClick={() => move(-1)}
          disabled={offset <= 0}
          aria-label="Mes anterior"
        >
          <span aria-hidden="true">‹</span>
        </button>
        <h2 id={titleId} className="wk-calendar__title" aria-live="polite">
          {MONTH_NAMES[view.month]} {view.year}
        </h2>
        <button
          type="button"
          className="wk-calendar__nav"
          onClick={() => move(1)}
          disabled={offset >= MONTHS_AHEAD}
          aria-label="Mes siguiente"
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
      <div className="wk-calendar__grid">
        {WEEKDAY_INITIALS.map((initial, i) => (
          <abbr key={i} className="wk-calendar__weekday" title={WEEKDAY_NAMES[i]}>
            {initial}
          </abbr>
        ))}
        {Array.from({ length: grid.leading }, (_, i) => (
          <span key={`blank-${i}`} aria-hidden="true" />
        ))}
        {grid.days.map((cell) => {
          const weekend = cell.weekday === 0 || cell.weekday === 6;
          // Closed days stay selectable: the slot list then says why there are no slots.
          const closed = closedReason(cell.day, closures);
          const classes = [
            'wk-calendar__day',
            weekend ? 'wk-calendar__day--weekend' : '',
            closed ? 'wk-calendar__day--closed' : '',
            cell.day === today ? 'wk-calendar__day--today' : '',
            cell.day === selected ? 'is-selected' : '',
          ]
            .filter(Boolean)
            .join(' ');
          return (
            <button
              key={cell.day}
              type="button"
              className={classes}
              disabled={cell.day < today}
              aria-pressed={cell.day === selected}
              aria-label={closed ? `${longDay(cell.day)}, cerrado: ${closed}` : longDay(cell.day)}
              title={closed ? `Cerrado: ${closed}` : undefined}
              data-day={cell.day}
              onClick={() => onSelect(cell.day)}
            >
              {cell.date}
            </button>
          );
        })}
      </div>
    </section>
  );
}
