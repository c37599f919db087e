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

/** Status names shown to staff (the spec does not show them; the server's values are English). */
export const STATUS_LABELS: Record<AppointmentStatus, string> = {
  booked: 'Reservada',
  cancelled: 'Cancelada',
  deleted: 'Eliminada',
  attended: 'Atendida',
  checkedIn: 'En el centro',
  noShow: 'No presentado',
};

const column = createColumnHelper<AppointmentView>();
const columns = [
  column.accessor((a) => Date.parse(a.date), {
    id: 'date',
    header: 'Fecha y hora',
    cell: (info) => formatDateTime(info.row.original.date),
    size: 200,
  }),
  column.accessor((a) => STATUS_LABELS[a.status] ?? a.status, { id: 'status', header: 'Estado', size: 160 }),
];

/**
 * "Listado de Citas de {patient}" (SPEC §2, path spelled "hisotry"): every appointment of the patient
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
        matchesSearch(debouncedSearch, [formatDateTime(a.date), STATUS_LABELS[a.status] ?? a.status]),
      ),
    [data, debouncedSearch],
  );
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
