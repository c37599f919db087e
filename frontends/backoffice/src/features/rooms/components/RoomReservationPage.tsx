import { useMemo, useState } from 'react';
import { MESSAGES, showDialog, showError, showSuccess, useSession } from '@crm/web-kit';
import { Calendar, SlotGrid } from '@crm/web-kit/calendar';
import { formatDate, formatDay, formatTime, freeRoomSlots, isWeekend, type Day } from '@crm/web-kit/time';
import { PageHeader } from '@/components';
import { reserveRoom, ROOM_ID, useReservedRoomDates, useRoomReservations } from '../api/rooms';
import { RoomReservationList } from './RoomReservationList';

/** The rooms service takes at most 10 slots per request. */
const MAX_SLOTS = 10;

/**
 * "Reservar Consulta" (docs/product/rooms.md#reservation-screen): month view, weekends red without slots,
 * hourly slots from the day's 08:00 over 10 hours (reserved and past ones not offered); several slots,
 * possibly on several days, are toggled, then "Reservar". Below, the room's reservations and who holds them,
 * with cancel for the holder (and an ADMIN).
 */
export default function RoomReservationPage() {
  const { user } = useSession();
  const { data: reserved, isLoading, mutate } = useReservedRoomDates();
  const { mutate: refreshList } = useRoomReservations();
  const [day, setDay] = useState<Day | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const slots = useMemo(() => (day ? freeRoomSlots(day, reserved ?? []) : []), [day, reserved]);

  const toggle = (slot: string) =>
    setChosen((old) =>
      old.includes(slot)
        ? old.filter((s) => s !== slot)
        : old.length < MAX_SLOTS
          ? [...old, slot].sort()
          : old,
    );

  const submit = async () => {
    if (chosen.length === 0) {
      await showError(MESSAGES.roomNoSlots.title, MESSAGES.roomNoSlots.text);
      return;
    }
    if (!user) return;
    setBusy(true);
    try {
      const doctor = user.profile?.name ? { id: user.id, name: user.profile.name } : { id: user.id };
      await reserveRoom(doctor, chosen);
      setChosen([]);
      await Promise.all([mutate(), refreshList()]);
      await showSuccess('Consulta reservada', `Se han reservado ${chosen.length} horario(s) de la consulta.`);
    } catch {
      // Slots someone else took meanwhile are no longer offered, nor kept selected.
      const fresh = new Set((await mutate())?.map((instant) => Date.parse(instant)) ?? []);
      setChosen((old) => old.filter((slot) => !fresh.has(Date.parse(slot))));
      // This failure is shown with a success icon (docs/product/rooms.md#errors).
      await showDialog({ title: MESSAGES.roomFailed.title, text: MESSAGES.roomFailed.text, icon: 'success' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="bo-page">
      <PageHeader title="Reservar Consulta" />
      <p className="bo-lead">
        Consulta {ROOM_ID.replace('consulta-', '')}: elija uno o varios horarios (de 08:00 a 18:00, hora de
        Canarias, de lunes a viernes) y pulse «Reservar».
      </p>
      <div className="bo-booking">
        <Calendar label="Calendario de la consulta" selected={day} onSelect={setDay} />
        <section className="wk-slots" aria-live="polite" aria-label="Horarios de la consulta">
          {!day ? (
            <p className="wk-slots__hint">Seleccione un día del calendario para ver los horarios.</p>
          ) : isWeekend(day) ? (
            <p className="wk-slots__empty">Sin horarios los fines de semana.</p>
          ) : isLoading && !reserved ? (
            <p className="wk-slots__hint">Cargando horarios…</p>
          ) : slots.length === 0 ? (
            <p className="wk-slots__empty">No hay Horiarios disponibles para {formatDay(day)}</p>
          ) : (
            <>
              <h2 className="wk-slots__title">Horarios para {formatDay(day)}</h2>
              <SlotGrid slots={slots} onPick={toggle} isChosen={(slot) => chosen.includes(slot)} />
            </>
          )}
          <div className="bo-slots__footer">
            <p aria-live="polite">
              {chosen.length === 0
                ? 'Ningún horario seleccionado.'
                : `Seleccionados: ${chosen.map((s) => `${formatDate(s)} ${formatTime(s)}`).join(', ')}`}
            </p>
            <button type="button" className="wk-button" onClick={() => void submit()} disabled={busy}>
              Reservar
            </button>
          </div>
        </section>
      </div>
      <RoomReservationList onChanged={mutate} />
    </section>
  );
}
