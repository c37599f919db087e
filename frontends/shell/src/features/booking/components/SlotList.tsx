import { SlotGrid } from '@crm/web-kit/calendar';
import type { WaitlistOfferView } from '@crm/contracts';
import { formatDay, type Day } from '@crm/web-kit/time';
import { heldOfferText } from '@/lib/waitlist-state';

/**
 * Free slots of the chosen day, four per row, or the "no slots" text (spelled as the product always has:
 * docs/product/README.md#language).
 */
export function SlotList({
  day,
  slots,
  loading,
  held,
  onPick,
  closed,
}: {
  day: Day | null;
  slots: string[];
  loading: boolean;
  /** A slot of this day held for the patient (waiting list): theirs, so the day is not "full" for them. */
  held?: WaitlistOfferView;
  onPick(slot: string): void;
  /** The centre is closed that day: why (a holiday's name, a closure's reason). */
  closed?: string | undefined;
}) {
  return (
    <section className="wk-slots" aria-live="polite" aria-labelledby="slots-title">
      {!day ? (
        <p id="slots-title" className="wk-slots__hint">
          Seleccione un día del calendario para ver los horarios disponibles.
        </p>
      ) : closed ? (
        <p id="slots-title" className="wk-slots__empty" data-closed-day={day}>
          El centro está cerrado el {formatDay(day)} ({closed}). Elija otro día.
        </p>
      ) : loading ? (
        <p id="slots-title" className="wk-slots__hint">
          Cargando horarios…
        </p>
      ) : slots.length === 0 && held ? (
        <p id="slots-title" className="wk-slots__hint">
          {heldOfferText(held)}
        </p>
      ) : slots.length === 0 ? (
        <p id="slots-title" className="wk-slots__empty">
          No hay Horiarios disponibles para {formatDay(day)}
        </p>
      ) : (
        <>
          <h2 id="slots-title" className="wk-slots__title">
            Horarios disponibles para {formatDay(day)}
          </h2>
          <SlotGrid slots={slots} onPick={onPick} />
          <p className="slots__note">
            Horas en horario de Canarias (Atlantic/Canary). Cada cita dura 15 minutos.
          </p>
        </>
      )}
    </section>
  );
}
