import { lazy, Suspense, useState, type FormEvent } from 'react';
import { ApiError, showRequestError, useSession } from '@crm/web-kit';
import { formatAmount } from '@crm/web-kit/format';
import { TextField } from '@crm/web-kit/forms';
import { AlertNotice, PageHeader } from '@/components';
import { exportInvoicesCsv } from '../api/export-invoices-csv';
import { useReportSummary } from '../api/get-report-summary';
import { formatPercent, isoDay } from './format';
import { MoneyTotals } from './MoneyTotals';
import './dashboard.css';

// The chart library is only downloaded when the charts are drawn (this page, with figures).
const DashboardCharts = lazy(() => import('./DashboardCharts'));

function lastDays(count: number): { from: string; to: string } {
  const to = new Date();
  const from = new Date(to);
  from.setDate(from.getDate() - (count - 1));
  return { from: isoDay(from), to: isoDay(to) };
}

/** Server messages (400) by the field they name. */
function fieldErrors(error: unknown): { from?: string; to?: string; general?: string } {
  if (!(error instanceof ApiError) || error.isServerFailure) return {};
  const out: { from?: string; to?: string; general?: string } = {};
  for (const e of error.errors) {
    if (e.field === 'from' || e.field === 'to') out[e.field] ??= e.message;
    else out.general ??= e.message;
  }
  if (!out.from && !out.to && !out.general) out.general = error.message;
  return out;
}

/**
 * "Panel" (ADMIN, docs/product/back-office.md#dashboard): the centre's figures for a range of days — bookings
 * by channel, occupancy of the grid slots, no-shows, cancellations with and without refund, revenue per day
 * and per certificate type — from the reporting service's read model.
 */
export default function DashboardPage() {
  const isAdmin = useSession().user?.rol === 'ADMIN';
  const [draft, setDraft] = useState(() => lastDays(30));
  const [range, setRange] = useState(draft);
  const { data, error, isLoading } = useReportSummary(range.from, range.to, isAdmin);
  const [exporting, setExporting] = useState(false);
  const errors = fieldErrors(error);

  if (!isAdmin) {
    return (
      <section className="bo-page">
        <PageHeader title="Panel" />
        <AlertNotice>Solo un administrador puede ver el panel.</AlertNotice>
      </section>
    );
  }

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setRange({ ...draft });
  };
  const totals = data?.totals;
  // The period shown (the one last applied), not dates typed but not yet applied.
  const exportInvoices = async () => {
    setExporting(true);
    try {
      await exportInvoicesCsv(range.from, range.to);
    } catch (err) {
      void showRequestError(err, 'No se pudieron exportar las facturas');
    } finally {
      setExporting(false);
    }
  };

  return (
    <section className="bo-page bo-dashboard">
      <PageHeader title="Panel" />
      <form className="bo-filter-bar" aria-label="Periodo" onSubmit={apply}>
        <TextField
          label="Desde"
          type="date"
          value={draft.from}
          onValueChange={(from) => setDraft((d) => ({ ...d, from }))}
          error={errors.from}
        />
        <TextField
          label="Hasta"
          type="date"
          value={draft.to}
          onValueChange={(to) => setDraft((d) => ({ ...d, to }))}
          error={errors.to}
        />
        <div className="bo-filter-bar__buttons">
          <button type="submit" className="wk-button">
            Ver
          </button>
          {[7, 30, 365].map((count) => (
            <button
              key={count}
              type="button"
              className="wk-button wk-button--secondary"
              onClick={() => {
                const next = lastDays(count);
                setDraft(next);
                setRange(next);
              }}
            >
              {count === 365 ? 'Último año' : `Últimos ${count} días`}
            </button>
          ))}
          <button
            type="button"
            className="wk-button wk-button--secondary bo-dashboard__export"
            onClick={exportInvoices}
            disabled={exporting}
          >
            {exporting ? 'Exportando…' : 'Exportar facturas (CSV)'}
          </button>
        </div>
      </form>
      {errors.general && <AlertNotice>{errors.general}</AlertNotice>}
      {error && !(error instanceof ApiError && !error.isServerFailure) && (
        <AlertNotice>No se pudieron cargar las cifras. Inténtelo de nuevo más tarde.</AlertNotice>
      )}
      {isLoading && !data && <p className="bo-lead">Cargando…</p>}
      {totals && data && (
        <>
          <dl className="bo-dashboard__totals" aria-label="Totales del periodo">
            <div>
              <dt>Citas</dt>
              <dd data-figure="booked">{totals.booked}</dd>
            </div>
            <div>
              <dt>Sin cita previa (quiosco)</dt>
              <dd data-figure="walkIns">{totals.walkIns}</dd>
            </div>
            <div>
              <dt>Ocupación</dt>
              <dd data-figure="occupancy">{formatPercent(totals.occupancy)}</dd>
            </div>
            <div>
              <dt>Atendidas</dt>
              <dd data-figure="attended">{totals.attended}</dd>
            </div>
            <div>
              <dt>No presentados</dt>
              <dd data-figure="noShow">
                {totals.noShow} <small>({formatPercent(totals.noShowRate)})</small>
              </dd>
            </div>
            <div>
              <dt>Cancelaciones con reembolso</dt>
              <dd data-figure="refundable">{totals.refundableCancellations}</dd>
            </div>
            <div>
              <dt>Cancelaciones sin reembolso</dt>
              <dd data-figure="nonRefundable">{totals.nonRefundableCancellations}</dd>
            </div>
            <div>
              <dt>Ingresos</dt>
              <dd data-figure="revenue">{formatAmount(totals.revenue, data.currency)}</dd>
            </div>
          </dl>
          <p className="bo-dashboard__note">
            Reembolso: cancelada más de {data.refundWindowHours} h antes. Ocupación: huecos de la agenda
            reservados sobre los huecos del día. Ingresos: el total (bruto) de los registros clínicos.
          </p>
          {totals.money && <MoneyTotals money={totals.money} />}
          <p className="bo-dashboard__note">
            Cobros: pagos en línea y en el centro el día en que se cobraron; devoluciones el día en que se
            confirmaron.
          </p>
          <Suspense fallback={<p className="bo-lead">Cargando gráficos…</p>}>
            <DashboardCharts summary={data} />
          </Suspense>
        </>
      )}
    </section>
  );
}
