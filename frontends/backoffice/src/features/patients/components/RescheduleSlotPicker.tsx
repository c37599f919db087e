import { useMemo, useState } from 'react';
import { Calendar, SlotGrid } from '@crm/web-kit/calendar';
import { formatDay, freeSlots, type Day } from '@crm/web-kit/time';
import { useBookedDates } from '@/lib/booked-dates';

/** "Editar Cita": a day, then one of its free slots (the appointment's own slot is not offered). */
export function RescheduleSlotPicker({
  onPick,
  onClose,
}: {
  onPick: (slot: string) => void;
  onClose: () => void;
}) {
  const { data: booked, isLoading } = useBookedDates();
  const [day, setDay] = useState<Day | null>(null);
  const slots = useMemo(() => (day ? freeSlots(day, booked ?? []) : []), [day, booked]);
  return (
    <section className="bo-card bo-reschedule" aria-label="Nueva fecha de la cita">
      <h3>Elija la nueva fecha y hora</h3>
      <div className="bo-booking">
        <Calendar label="Calendario de citas" selected={day} onSelect={setDay} />
        <section className="wk-slots" aria-live="polite" aria-label="Horarios">
          {!day ? (
            <p className="wk-slots__hint">
              Seleccione un día del calendario para ver los horarios disponibles.
            </p>
          ) : isLoading && !booked ? (
            <p className="wk-slots__hint">Cargando horarios…</p>
          ) : slots.length === 0 ? (
            <p className="wk-slots__empty">No hay Horiarios disponibles para {formatDay(day)}</p>
          ) : (
            <>
              <h4 className="wk-slots__title">Horarios disponibles para {formatDay(day)}</h4>
              <SlotGrid slots={slots} onPick={onPick} />
            </>
          )}
        </section>
      </div>
      <button type="button" className="wk-button wk-button--secondary" onClick={onClose}>
        Cerrar
      </button>
    </section>
  );
}
