import { SlotChooser } from '@/components';

/** "Editar Cita": a new day and free slot for the appointment. */
export function RescheduleSlotPicker({
  onPick,
  onClose,
}: {
  onPick: (slot: string) => void;
  onClose: () => void;
}) {
  return (
    <section className="bo-card bo-reschedule" aria-label="Nueva fecha de la cita">
      <h3>Elija la nueva fecha y hora</h3>
      <SlotChooser onPick={onPick} />
      <button type="button" className="wk-button wk-button--secondary" onClick={onClose}>
        Cerrar
      </button>
    </section>
  );
}
