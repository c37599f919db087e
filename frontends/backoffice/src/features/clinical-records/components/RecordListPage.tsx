import { useMemo } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import type { RecordView } from '@crm/contracts';
import {
  DataTable,
  PageHeader,
  SearchBox,
  useDebouncedSearch,
  usePageSize,
  useServerPages,
} from '@/components';
import { formatCentreDateTime } from './form-builder/centre-time';
import { isRecordId, metadataCellText, metadataColumns } from './record-cells';
import { useRecord, useRecordsPage } from '../api/records';
import './clinical-records.css';

/** One column-visibility key per list (docs/product/back-office.md#tables). */
export const RECORD_COLUMNS_KEY = 'columns:records';

/**
 * `/doctor/patient/records` and `/doctor/patient/records/:name`
 * (docs/product/clinical-records.md#record-list). The second lists the records of one patient: the name
 * starts the search. After an update the detail page goes to `/doctor/patient/records/<record id>`: an id
 * there stands for that record's patient.
 */
export default function RecordListPage() {
  const { name } = useParams();
  const byId = isRecordId(name);
  const { data: record, error } = useRecord(byId ? name : undefined);
  if (byId && !record && !error) return <RecordListStatus text="Cargando registros..." />;
  // An unknown id is searched as typed (and finds nothing) rather than listing everyone's records.
  const patient = byId && record ? record.user.name : (name ?? '');
  // A new patient starts a new list (its own search and page).
  return <RecordList key={patient} patient={patient} />;
}

function RecordListStatus({ text }: { text: string }) {
  return (
    <section className="cr-page">
      <PageHeader title="Listado de Registros Clínicos" />
      <p role="status">{text}</p>
    </section>
  );
}

const column = createColumnHelper<RecordView>();

function RecordList({ patient }: { patient: string }) {
  const navigate = useNavigate();
  const limit = usePageSize(6, 10);
  const { search, setSearch, debouncedSearch } = useDebouncedSearch(patient);
  // A new search starts again at page 1.
  const { page, server } = useServerPages(debouncedSearch);
  const { data, isLoading } = useRecordsPage(page, limit, debouncedSearch.trim());
  const records = useMemo(() => data?.records ?? [], [data]);

  const metadata = metadataColumns(records);
  const metadataKey = metadata.map((field) => `${field.name}:${field.label}`).join('|');
  const columns = useMemo<ColumnDef<RecordView, string>[]>(
    () => [
      column.accessor((record) => record.doctor?.name ?? '', { id: 'doctor', header: 'Doctor' }),
      column.accessor((record) => record.user?.name ?? '', { id: 'patient', header: 'Paciente' }),
      column.accessor((record) => record.date?.date ?? '', {
        id: 'date',
        header: 'Fecha de la cita',
        cell: (info) => formatCentreDateTime(info.getValue()),
      }),
      ...metadata.map((field) =>
        column.accessor((record) => metadataCellText(record.metadata?.[field.name]), {
          id: `metadata.${field.name}`,
          header: field.label,
        }),
      ),
      column.display({
        id: 'actions',
        header: 'Edición',
        enableHiding: false,
        enableSorting: false,
        cell: (info) => (
          <button
            type="button"
            className="wk-button wk-button--secondary cr-table-button"
            onClick={() => navigate(`/doctor/patient/records/detail/${info.row.original.id}`)}
          >
            Ver
          </button>
        ),
      }) as ColumnDef<RecordView, string>,
    ],
    // The metadata columns change only when the first record's fields do.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [metadataKey, navigate],
  );

  return (
    <section className="cr-page">
      <PageHeader title="Listado de Registros Clínicos" />
      {patient && <p className="cr-subtitle">Paciente: {patient}</p>}
      <DataTable
        label="Listado de Registros Clínicos"
        columns={columns}
        data={records}
        pageSize={limit}
        emptyText="No se encontraron registros."
        loading={isLoading && !data}
        loadingText="Cargando registros..."
        columnVisibilityKey={RECORD_COLUMNS_KEY}
        getRowId={(record) => record.id}
        totalNoun="registros"
        toolbar={<SearchBox label="Buscar registro" value={search} onChange={setSearch} />}
        server={server(data)}
      />
    </section>
  );
}
