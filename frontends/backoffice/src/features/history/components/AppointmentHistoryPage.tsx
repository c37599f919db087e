import { useMemo } from 'react';
import { Link, useParams } from 'react-router-dom';
import useSWR from 'swr';
import { createColumnHelper } from '@tanstack/react-table';
import type { AppointmentStatus, AppointmentView, PatientHistory } from '@crm/contracts';
import { api } from '@crm/web-kit';
import { formatDateTime } from '@crm/web-kit/time';
import { SearchBox, TablePage, useDebouncedSearch, usePageSize } from '@/components';
import { historyKey } from '@/lib/cache-keys';
import { matchesSearch } from '@/lib/text';

/** Status names shown to staff (the server's values are English). */
export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  booked: 'Reservada',
  cancelled: 'Cancelada',
  deleted: 'Eliminada',
  attended: 'Atendida',
  checkedIn: 'En el centro',
  noShow: 'No presentado',
};

/**
 * The status as staff read it: a move ends the old appointment as `cancelled`, which is shown as
 * where it went ("Cambiada al …"), never as a cancellation.
 */
export function statusLabel(appointment: AppointmentView, all: readonly AppointmentView[]): string {
  if (appointment.status === 'cancelled' && appointment.rescheduledTo) {
    const moved = all.find((a) => a.id === appointment.rescheduledTo);
    return moved ? `Cambiada al ${formatDateTime(moved.date)}` : 'Cambiada';
  }
  return STATUS_LABELS[appointment.status] ?? appointment.status;
}

const column = createColumnHelper<AppointmentView>();
const columnsOf = (all: readonly AppointmentView[]) => [
  column.accessor((a) => Date.parse(a.date), {
    id: 'date',
    header: 'Fecha y hora',
    cell: (info) => formatDateTime(info.row.original.date),
    size: 200,
  }),
  column.accessor((a) => statusLabel(a, all), { id: 'status', header: 'Estado', size: 220 }),
];

/**
 * "Listado de Citas de {patient}" (docs/product/back-office.md#appointment-history, path spelled
 * "hisotry"): every appointment of the patient
 * from GET /dates/history/userid/{id}, sortable, searchable, 10 per page on wide windows else 5.
 */
export default function AppointmentHistoryPage() {
  const { patientId = '' } = useParams();
  const { data, error, isLoading } = useSWR(patientId ? historyKey(patientId) : null, () =>
    api.get<PatientHistory>(`/dates/history/userid/${encodeURIComponent(patientId)}`),
  );
  const { search, setSearch, debouncedSearch } = useDebouncedSearch();
  const pageSize = usePageSize(10, 5);
  const rows = useMemo(
    () =>
      (data?.appointments ?? []).filter((a) =>
        matchesSearch(debouncedSearch, [formatDateTime(a.date), statusLabel(a, data?.appointments ?? [])]),
      ),
    [data, debouncedSearch],
  );
  const columns = useMemo(() => columnsOf(data?.appointments ?? []), [data]);
  const patientName = data?.user?.name ?? '';

  return (
    <TablePage
      title={`Listado de Citas de ${patientName}`}
      actions={
        <Link className="wk-button wk-button--secondary" to={`/doctor/patient/${patientId}`}>
          Volver al paciente
        </Link>
      }
      failure={error && 'No se pudo cargar el historial.'}
      columns={columns}
      data={rows}
      pageSize={pageSize}
      loading={isLoading}
      loadingText="Cargando citas..."
      emptyText="No se encontraron citas."
      initialSorting={[{ id: 'date', desc: true }]}
      totalNoun={['cita', 'citas']}
      getRowId={(a) => a.id}
      toolbar={<SearchBox label="Buscar cita" value={search} onChange={setSearch} />}
    />
  );
}
