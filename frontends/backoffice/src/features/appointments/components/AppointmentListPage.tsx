import { useMemo, useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { AppointmentStatus, AppointmentView } from '@crm/contracts';
import { displayPhone, useSession } from '@crm/web-kit';
import { formatDateTime } from '@crm/web-kit/time';
import { PaymentCell, SearchBox, TablePage, useDebouncedSearch, usePageSize, ViewLink } from '@/components';
import { APPOINTMENT_STATUS_LABELS } from '@/lib/appointment-status';
import { matchesSearch } from '@/lib/text';
import { useAppointments } from '../api/appointments';
import { useDeleteAppointment } from './use-delete-appointment';

const column = createColumnHelper<AppointmentView>();

/** The statuses of the day's work the list can be narrowed to ('' = all of them). */
const STATUS_FILTERS: Array<AppointmentStatus | ''> = ['', 'booked', 'checkedIn', 'attended', 'noShow'];

/**
 * "Listado de Citas" (docs/product/back-office.md#appointment-list): the day's work — booked and waiting
 * patients, and today's attended and no-shows — with their status, sorted by date ascending, filtered by
 * "Buscar paciente" (500 ms debounce) and by "Estado", 6 per page on wide windows, else 10. "Eliminar" is
 * ADMIN's.
 */
export default function AppointmentListPage() {
  const { user } = useSession();
  const isAdmin = user?.rol === 'ADMIN';
  const { data, error, isLoading, mutate } = useAppointments();
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const pageSize = usePageSize(6, 10);
  const remove = useDeleteAppointment(mutate);

  const [status, setStatus] = useState<AppointmentStatus | ''>('');

  const rows = useMemo(
    () =>
      (data ?? []).filter(
        (a) =>
          (!status || a.status === status) &&
          // The booking code too: a patient at the desk may read it out from their e-mail.
          matchesSearch(debouncedSearch, [
            a.user?.name ?? a.name,
            a.user?.email,
            a.user?.phone,
            a.bookingCode,
          ]),
      ),
    [data, debouncedSearch, status],
  );

  const columns = useMemo(
    () => [
      column.accessor((a) => Date.parse(a.date), {
        id: 'date',
        header: 'Fecha y hora',
        cell: (info) => formatDateTime(info.row.original.date),
        size: 170,
      }),
      column.accessor((a) => a.user?.name ?? a.name, { id: 'name', header: 'Paciente', size: 200 }),
      column.accessor((a) => APPOINTMENT_STATUS_LABELS[a.status] ?? a.status, {
        id: 'status',
        header: 'Estado',
        cell: (info) => (
          <span className={`bo-badge bo-badge--${info.row.original.status}`}>{info.getValue()}</span>
        ),
        size: 140,
      }),
      column.accessor((a) => a.bookingCode ?? '', { id: 'code', header: 'Código', size: 110 }),
      // An accessor, not a display column: on a phone's card a display column is an action row without its label.
      column.accessor((a) => a.id, {
        id: 'payment',
        header: 'Pago',
        enableSorting: false,
        cell: ({ row }) => (
          <PaymentCell appointmentId={row.original.id} who={row.original.user?.name ?? row.original.name} />
        ),
        size: 200,
      }),
      column.accessor((a) => a.user?.phone ?? '', {
        id: 'phone',
        header: 'Teléfono',
        cell: (info) => (info.getValue() ? displayPhone(info.getValue()) : 'No registrado'),
        size: 160,
      }),
      column.accessor((a) => a.user?.email ?? '', { id: 'email', header: 'Correo', size: 230 }),
      column.display({
        id: 'edit',
        header: 'Edición',
        enableSorting: false,
        enableHiding: false,
        size: 190,
        cell: ({ row }) => {
          const appointment = row.original;
          const who = appointment.user?.name ?? appointment.name;
          return (
            <div className="bo-row-actions">
              <ViewLink to={`/doctor/appointments/${appointment.id}`} label={`Ver la cita de ${who}`} />
              {isAdmin && (
                <button
                  type="button"
                  className="wk-button wk-button--danger bo-small"
                  onClick={() => void remove(appointment)}
                  aria-label={`Eliminar la cita de ${who}`}
                >
                  Eliminar
                </button>
              )}
            </div>
          );
        },
      }),
    ],
    [isAdmin, remove],
  );

  return (
    <TablePage
      title="Listado de Citas"
      failure={error && 'No se pudieron cargar las citas.'}
      columns={columns}
      data={rows}
      pageSize={pageSize}
      loading={isLoading && !data}
      loadingText="Cargando citas..."
      emptyText="No se encontraron citas."
      initialSorting={[{ id: 'date', desc: false }]}
      totalNoun={['cita', 'citas']}
      getRowId={(a) => a.id}
      toolbar={
        <>
          <SearchBox label="Buscar paciente" value={search} onChange={setSearch} />
          <label className="bo-status-filter">
            <span>Estado</span>
            <select
              className="wk-input"
              value={status}
              onChange={(event) => setStatus(event.target.value as AppointmentStatus | '')}
            >
              {STATUS_FILTERS.map((value) => (
                <option key={value} value={value}>
                  {value ? APPOINTMENT_STATUS_LABELS[value] : 'Todos'}
                </option>
              ))}
            </select>
          </label>
        </>
      }
    />
  );
}
