import { useState } from 'react';
import type { RoomReservationView } from '@crm/contracts';
import { confirmDialog, showRequestError, showSuccess, useSession } from '@crm/web-kit';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { cancelRoomReservation, useRoomReservations, useStaffNames } from '../api/rooms';

type Filter = 'all' | 'mine';

/** "12/01/2026 10:00, 11:00 · 13/01/2026 09:00": the hours of a reservation, grouped by day. */
export function describeHours(dates: readonly string[]): string {
  const byDay = new Map<string, string[]>();
  for (const instant of dates) {
    const day = formatDate(instant);
    byDay.set(day, [...(byDay.get(day) ?? []), formatTime(instant)]);
  }
  return [...byDay].map(([day, times]) => `${day} ${times.join(', ')}`).join(' · ');
}

/**
 * The room's reservations from now on and who holds each (staff share the rooms), "Todas" or
 * "Mías"; the holder, or an ADMIN, cancels one after a confirmation. `onChanged` refreshes the
 * calendar's free slots after a cancellation.
 */
export function RoomReservationList({ onChanged }: { onChanged: () => Promise<unknown> }) {
  const { user } = useSession();
  const { data: reservations, isLoading, error, mutate } = useRoomReservations();
  const { data: names } = useStaffNames();
  const [filter, setFilter] = useState<Filter>('all');
  const [busyId, setBusyId] = useState<string | null>(null);
  const isAdmin = user?.rol === 'ADMIN';

  const holder = (reservation: RoomReservationView): string => {
    const name = names?.get(reservation.doctor.id) ?? reservation.doctor.name ?? 'Personal del centro';
    return reservation.doctor.id === user?.id ? `${name} (usted)` : name;
  };
  const shown = (reservations ?? []).filter(
    (reservation) => filter === 'all' || reservation.doctor.id === user?.id,
  );

  const cancel = async (reservation: RoomReservationView) => {
    const hours = describeHours(reservation.dates);
    const confirmed = await confirmDialog({
      title: '¿Cancelar la reserva?',
      text: `Se liberarán estos horarios de la consulta: ${hours} (${holder(reservation)}).`,
      icon: 'warning',
      confirmButtonText: 'Sí, cancelar',
    });
    if (!confirmed) return;
    setBusyId(reservation.id);
    try {
      await cancelRoomReservation(reservation.id);
      await Promise.all([mutate(), onChanged()]);
      await showSuccess('Reserva cancelada', `Los horarios ${hours} han quedado libres.`);
    } catch (failure) {
      await mutate();
      await showRequestError(failure, 'No se pudo cancelar la reserva');
    } finally {
      setBusyId(null);
    }
  };

  return (
    <section className="bo-room-list" aria-labelledby="bo-room-list-title">
      <div className="bo-room-list__header">
        <h2 id="bo-room-list-title">Reservas de la consulta</h2>
        <div className="bo-segmented" role="group" aria-label="Mostrar reservas">
          <button type="button" aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
            Todas
          </button>
          <button type="button" aria-pressed={filter === 'mine'} onClick={() => setFilter('mine')}>
            Mías
          </button>
        </div>
      </div>
      {isLoading && !reservations ? (
        <p className="wk-slots__hint">Cargando reservas…</p>
      ) : error && !reservations ? (
        <p className="bo-notice">No se pudieron cargar las reservas.</p>
      ) : shown.length === 0 ? (
        <p className="bo-empty">
          {filter === 'mine' ? 'No tiene reservas de esta consulta.' : 'No hay reservas de esta consulta.'}
        </p>
      ) : (
        <ul className="bo-room-list__items" aria-label="Reservas">
          {shown.map((reservation) => (
            <li key={reservation.id} className="bo-room-list__item">
              <div>
                <p className="bo-room-list__hours">{describeHours(reservation.dates)}</p>
                <p className="bo-room-list__holder">Reservada por {holder(reservation)}</p>
              </div>
              {(isAdmin || reservation.doctor.id === user?.id) && (
                <button
                  type="button"
                  className="wk-button wk-button--secondary"
                  disabled={busyId === reservation.id}
                  onClick={() => void cancel(reservation)}
                >
                  Cancelar reserva
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
