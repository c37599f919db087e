import { useMemo, useState } from 'react';
import { Calendar, SlotGrid } from '@crm/web-kit/calendar';
import { useCentreProfile } from '@crm/web-kit';
import { closedReason, formatDay, freeSlots, type Day } from '@crm/web-kit/time';
import { useBookedDates } from '@/lib/booked-dates';

/**
 * A day of the calendar, then one of its free 15-minute slots (Atlantic/Canary, booked ones
 * removed): "Agendar Cita" and "Editar Cita".
 */
export function SlotChooser({ onPick }: { onPick: (slot: string) => void }) {
  const { data: booked, isLoading } = useBookedDates();
  const [day, setDay] = useState<Day | null>(null);
  const closures = useCentreProfile().profile?.closures;
  const slots = useMemo(
    () => (day ? freeSlots(day, booked ?? [], undefined, closures) : []),
    [day, booked, closures],
  );
  const closed = day ? closedReason(day, closures) : undefined;
  return (
    <div className="bo-booking">
      <Calendar label="Calendario de citas" selected={day} onSelect={setDay} closures={closures} />
      <section className="wk-slots" aria-live="polite" aria-label="Horarios">
        {!day ? (
          <p className="wk-slots__hint">
            Seleccione un día del calendario para ver los horarios disponibles.
          </p>
        ) : closed ? (
          <p className="wk-slots__empty" data-closed-day={day}>
            El centro está cerrado el {formatDay(day)} ({closed}). Elija otro día.
          </p>
        ) : isLoading && !booked ? (
          <p className="wk-slots__hint">Cargando horarios…</p>
        ) : slots.length === 0 ? (
          <p className="wk-slots__empty">No hay Horiarios disponibles para {formatDay(day)}</p>
        ) : (
          <>
            <h2 className="wk-slots__title">Horarios disponibles para {formatDay(day)}</h2>
            <SlotGrid slots={slots} onPick={onPick} />
          </>
        )}
      </section>
    </div>
  );
}
