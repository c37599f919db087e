import { useState, type FormEvent } from 'react';
import { createColumnHelper } from '@tanstack/react-table';
import type { AuditEntryView } from '@crm/contracts';
import { ApiError, showRequestError, useSession } from '@crm/web-kit';
import { TextField } from '@crm/web-kit/forms';
import { formatDateTime } from '@crm/web-kit/time';
import { AlertNotice, DataTable, PageHeader, usePageSize, useServerPages } from '@/components';
import { NO_AUDIT_FILTERS, useAuditEntries, type AuditFilters } from '../api/get-audit-entries';
import { exportAuditCsv } from '../api/export-audit-csv';
import { ACTION_LABELS, actionLabel, resourceLabel, roleLabel } from './audit-labels';
import './audit-log.css';

const column = createColumnHelper<AuditEntryView>();

/** localStorage key of this list's "Columnas" choice. */
export const AUDIT_COLUMNS_KEY = 'backoffice.audit.columns';

const dash = '—';
const columns = [
  column.accessor('at', {
    header: 'Fecha',
    cell: (info) => (
      <time className="bo-audit__when" dateTime={info.getValue()}>
        {formatDateTime(info.getValue())}
      </time>
    ),
    size: 160,
  }),
  column.accessor((e) => e.actorName ?? '', {
    id: 'actor',
    header: 'Usuario',
    cell: ({ row }) => (
      <span className="bo-audit__who">
        <span>{row.original.actorName ?? 'Sin nombre'}</span>
        <code className="bo-audit__id" title="Id. del usuario">
          {row.original.actorId}
        </code>
      </span>
    ),
    size: 220,
  }),
  column.accessor((e) => roleLabel(e.actorRol), { id: 'rol', header: 'Rol', size: 150 }),
  column.accessor((e) => actionLabel(e.action), {
    id: 'action',
    header: 'Acción',
    cell: ({ row, getValue }) => <span title={row.original.action}>{getValue()}</span>,
    size: 230,
  }),
  column.accessor((e) => e.patientId ?? '', {
    id: 'patient',
    header: 'Paciente',
    cell: (info) => (info.getValue() ? <code className="bo-audit__id">{info.getValue()}</code> : dash),
    size: 220,
  }),
  column.accessor((e) => resourceLabel(e.resource), {
    id: 'resource',
    header: 'Recurso',
    cell: ({ row, getValue }) => (
      <span className="bo-audit__who">
        <span>{getValue()}</span>
        {row.original.resourceId && <code className="bo-audit__id">{row.original.resourceId}</code>}
      </span>
    ),
    size: 220,
  }),
  column.accessor(
    (e) => (e.outcome === 'failure' ? 'Fallido' : e.outcome === 'success' ? 'Correcto' : dash),
    {
      id: 'outcome',
      header: 'Resultado',
      size: 110,
    },
  ),
  column.accessor((e) => e.requestId ?? '', {
    id: 'request',
    header: 'Id. de petición',
    cell: (info) => (info.getValue() ? <code className="bo-audit__id">{info.getValue()}</code> : dash),
    size: 200,
  }),
];

/** Server messages (400) by the field they name, for the filter form. */
function fieldErrors(error: unknown): Partial<Record<keyof AuditFilters, string>> & { general?: string } {
  if (!(error instanceof ApiError) || error.isServerFailure) return {};
  const out: Partial<Record<keyof AuditFilters, string>> & { general?: string } = {};
  for (const e of error.errors) {
    if (e.field && e.field in NO_AUDIT_FILTERS) out[e.field as keyof AuditFilters] ??= e.message;
    else out.general ??= e.message;
  }
  if (!error.errors.length) out.general = error.message;
  return out;
}

/**
 * "Registro de accesos" (ADMIN, docs/product/rights-and-access-trail.md#reading-the-trail): who read or
 * changed whose data, newest first, one row per patient named. Filters by patient, staff member, action and
 * days (Atlantic/Canary), server pages, and "Exportar CSV" with the same filters.
 */
export default function AuditLogPage() {
  const { user } = useSession();
  const isAdmin = user?.rol === 'ADMIN';
  const limit = usePageSize(20, 10);
  const [draft, setDraft] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  const [filters, setFilters] = useState<AuditFilters>(NO_AUDIT_FILTERS);
  // The page belongs to one set of filters and one page size: new ones start at page 1.
  const { page, server } = useServerPages(`${JSON.stringify(filters)}|${limit}`);
  const { data, error, isLoading } = useAuditEntries(filters, page, limit, isAdmin);
  const [exporting, setExporting] = useState(false);

  if (!isAdmin) {
    return (
      <section className="bo-page">
        <PageHeader title="Registro de accesos" />
        <AlertNotice>Solo los administradores pueden consultar el registro de accesos.</AlertNotice>
      </section>
    );
  }

  const errors = fieldErrors(error);
  const set = (key: keyof AuditFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  /** A filter field's name, value, change and refusal. */
  const filter = (key: keyof AuditFilters) => ({
    name: key,
    value: draft[key],
    onValueChange: set(key),
    error: errors[key],
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft });
  };
  const clear = () => {
    setDraft(NO_AUDIT_FILTERS);
    setFilters(NO_AUDIT_FILTERS);
  };
  const exportCsv = async () => {
    setExporting(true);
    try {
      await exportAuditCsv(filters);
    } catch (err) {
      void showRequestError(err, 'No se pudo exportar');
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="bo-page bo-audit">
      <PageHeader title="Registro de accesos">
        <button type="button" className="wk-button" onClick={exportCsv} disabled={exporting}>
          {exporting ? 'Exportando…' : 'Exportar CSV'}
        </button>
      </PageHeader>
      <p className="bo-lead">
        Quién del personal ha consultado o modificado qué datos y cuándo (hora de Canarias). La exportación
        usa los filtros aplicados.
      </p>
      <form className="bo-filter-bar bo-audit__filters" aria-label="Filtros del registro" onSubmit={apply}>
        <TextField label="Id. del paciente" autoComplete="off" spellCheck={false} {...filter('patientId')} />
        <TextField label="Id. del usuario" autoComplete="off" spellCheck={false} {...filter('actorId')} />
        <div className={`wk-field${errors.action ? ' wk-field--error' : ''}`}>
          <label className="wk-label" htmlFor="bo-audit-action">
            Acción
          </label>
          <select
            id="bo-audit-action"
            name="action"
            className="wk-input"
            value={draft.action}
            onChange={(e) => set('action')(e.target.value)}
          >
            <option value="">Todas las acciones</option>
            {Object.entries(ACTION_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
          <p className="wk-error-line" role={errors.action ? 'alert' : undefined}>
            {errors.action ?? ''}
          </p>
        </div>
        <TextField label="Desde" type="date" {...filter('from')} />
        <TextField label="Hasta" type="date" {...filter('to')} />
        <div className="bo-filter-bar__buttons bo-audit__buttons">
          <button type="submit" className="wk-button">
            Filtrar
          </button>
          <button type="button" className="wk-button wk-button--secondary" onClick={clear}>
            Limpiar
          </button>
        </div>
      </form>
      {error && (
        <AlertNotice>
          {errors.general ??
            (Object.keys(errors).length
              ? 'Revise los filtros.'
              : 'No se pudo cargar el registro de accesos.')}
        </AlertNotice>
      )}
      <DataTable
        label="Registro de accesos"
        columns={columns}
        data={error ? [] : (data?.entries ?? [])}
        pageSize={limit}
        loading={isLoading && !data}
        loadingText="Cargando registro..."
        emptyText="No hay accesos registrados con estos filtros."
        columnVisibilityKey={AUDIT_COLUMNS_KEY}
        server={server(data)}
        totalNoun={['acceso', 'accesos']}
        getRowId={(e, i) => `${e.at}|${e.actorId}|${e.patientId ?? ''}|${e.requestId ?? ''}|${i}`}
      />
    </section>
  );
}
