import { useState } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { UserView } from '@crm/contracts';
import { displayPhone } from '@crm/web-kit';
import { SearchBox, TablePage, useDebouncedValue, usePageSize, useServerPages, ViewLink } from '@/components';
import { usePatientsPage } from '../api/patients';

const column = createColumnHelper<UserView>();

/** localStorage key of this list's "Columnas" choice (one key per list). */
export const PATIENT_COLUMNS_KEY = 'backoffice.patients.columns';

const columns = [
  column.accessor('name', { header: 'Nombre', size: 220 }),
  column.accessor('email', { header: 'Correo', size: 240 }),
  column.accessor((p) => p.phone ?? '', {
    id: 'phone',
    header: 'Teléfono',
    cell: (info) => (info.getValue() ? displayPhone(info.getValue()) : 'No registrado'),
    size: 170,
  }),
  column.display({
    id: 'actions',
    header: 'Acciones',
    enableHiding: false,
    enableSorting: false,
    size: 110,
    cell: ({ row }) => (
      <ViewLink to={`/doctor/patient/${row.original._id}`} label={`Ver a ${row.original.name}`} />
    ),
  }),
];

/**
 * "Listado de Pacientes" (docs/product/back-office.md#patient-list): server-side pagination and search (GET
 * /users/pacients), 6 per page on wide windows else 10, the "Columnas" choice kept in localStorage.
 */
export default function PatientListPage() {
  const [search, setSearch] = useState('');
  const [includeErased, setIncludeErased] = useState(false);
  const debouncedSearch = useDebouncedValue(search.trim());
  const limit = usePageSize(6, 10);
  const { page, server } = useServerPages(`${debouncedSearch}|${limit}|${includeErased}`);
  const { data, error, isLoading } = usePatientsPage({ page, limit, search: debouncedSearch, includeErased });

  return (
    <TablePage
      title="Listado de Pacientes"
      failure={error && 'No se pudieron cargar los pacientes.'}
      columns={columns}
      data={data?.pacients ?? []}
      pageSize={limit}
      loading={isLoading && !data}
      loadingText="Cargando pacientes..."
      emptyText="No se encontraron pacientes."
      columnVisibilityKey={PATIENT_COLUMNS_KEY}
      server={server(data)}
      totalNoun={['paciente', 'pacientes']}
      getRowId={(p) => p._id}
      toolbar={
        <>
          <SearchBox label="Buscar paciente" value={search} onChange={setSearch} />
          {/* Erased accounts keep only "Paciente eliminado": hidden unless asked for. */}
          <label className="bo-checkbox">
            <input
              type="checkbox"
              checked={includeErased}
              onChange={(event) => setIncludeErased(event.target.checked)}
            />
            Mostrar cuentas eliminadas
          </label>
        </>
      }
    />
  );
}
