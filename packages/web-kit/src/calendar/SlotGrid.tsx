import { formatTime } from '../time/canary-time';

export interface SlotGridProps {
  /** ISO instants, shown as their Atlantic/Canary time ("09:15"). */
  slots: string[];
  onPick(slot: string): void;
  /** For a multiple choice: whether a slot is chosen (`aria-pressed`). */
  isChosen?(slot: string): boolean;
}

/** The free slots of a day as buttons, four a row (`wk-slots__grid`, styled by calendar.css). */
export function SlotGrid({ slots, onPick, isChosen }: SlotGridProps) {
  return (
    <ul className="wk-slots__grid">
      {slots.map((slot) => (
        <li key={slot}>
          <button
            type="button"
            className="wk-slot"
            data-slot={slot}
            aria-pressed={isChosen ? isChosen(slot) : undefined}
            onClick={() => onPick(slot)}
          >
            {formatTime(slot)}
          </button>
        </li>
      ))}
    </ul>
  );
}
