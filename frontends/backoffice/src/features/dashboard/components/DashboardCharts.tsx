import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ReportSummary } from '@crm/contracts';
import { formatAmount, formatNumber } from '@crm/web-kit/format';
import { formatPercent, shortDay } from './format';

/** Colours of the web-kit palette, readable on white and distinct for the three channels. */
const COLOURS = {
  patient: '#1b6ca8',
  staff: '#2e8b57',
  kiosk: '#d98c1f',
  danger: '#b3261e',
  muted: '#6b7280',
};

function Chart({ title, children }: { title: string; children: React.ReactElement }) {
  return (
    <figure className="bo-dashboard__chart">
      <figcaption>{title}</figcaption>
      <div className="bo-dashboard__plot">
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

interface Series {
  dataKey: string;
  name: string;
  colour: string;
}

/**
 * What every chart of days shares: the grid, the day axis, the value axis (32 px wide unless told),
 * the tooltip (values formatted by `format`) and, unless told not to, the legend. Returned as an
 * array of elements, which recharts reads like children written in place.
 */
function dayFrame(
  valueAxis: { allowDecimals?: boolean; domain?: [number, number]; width?: number },
  format?: (value: unknown) => string,
  legend = true,
) {
  return [
    <CartesianGrid key="grid" strokeDasharray="3 3" vertical={false} />,
    <XAxis key="day" dataKey="day" fontSize={12} />,
    <YAxis key="value" fontSize={12} width={32} tickFormatter={formatNumber} {...valueAxis} />,
    <Tooltip key="tooltip" formatter={format} />,
    ...(legend ? [<Legend key="legend" />] : []),
  ];
}

/** Bars of one stack, one per series, in the order given (bottom first). */
const stackedBars = (stackId: string, series: Series[]) =>
  series.map(({ dataKey, name, colour }) => (
    <Bar key={dataKey} {...{ dataKey, name, stackId }} fill={colour} isAnimationActive={false} />
  ));

/** One line per series. */
const lines = (series: Series[]) =>
  series.map(({ dataKey, name, colour }) => (
    <Line
      key={dataKey}
      {...{ dataKey, name }}
      stroke={colour}
      strokeWidth={2}
      dot={false}
      isAnimationActive={false}
    />
  ));

/**
 * The dashboard's charts (recharts, loaded with this chunk only when the Panel is opened): bookings
 * per day by channel, occupancy and no-shows, cancellations with and without refund, revenue per day
 * and per certificate type.
 */
export default function DashboardCharts({ summary }: { summary: ReportSummary }) {
  const days = summary.days.map((day) => ({
    day: shortDay(day.date),
    web: day.byChannel.patient,
    staff: day.byChannel.staff,
    kiosk: day.byChannel.kiosk,
    occupancy: Math.round(day.occupancy * 1000) / 10,
    noShowRate: Math.round(day.noShowRate * 1000) / 10,
    refunded: day.refundableCancellations,
    notRefunded: day.nonRefundableCancellations,
    revenue: day.revenue,
  }));
  const certificates = Object.entries(summary.totals.revenueByCertificate).map(([type, revenue]) => ({
    type,
    revenue,
  }));
  const money = (value: unknown) => formatAmount(Number(value), summary.currency);
  const pct = (value: unknown) => formatPercent(Number(value) / 100);
  /** A chart of days with one stack of bars. */
  const dayBars = (
    title: string,
    stackId: string,
    series: Series[],
    frame = dayFrame({ allowDecimals: false }),
  ) => (
    <Chart title={title}>
      <BarChart data={days}>
        {frame}
        {stackedBars(stackId, series)}
      </BarChart>
    </Chart>
  );
  return (
    <div className="bo-dashboard__charts">
      {dayBars('Citas por día y canal', 'channel', [
        { dataKey: 'web', name: 'Web (paciente)', colour: COLOURS.patient },
        { dataKey: 'staff', name: 'Personal', colour: COLOURS.staff },
        { dataKey: 'kiosk', name: 'Quiosco', colour: COLOURS.kiosk },
      ])}
      <Chart title="Ocupación y ausencias (%)">
        <LineChart data={days}>
          {dayFrame({ domain: [0, 100] }, pct)}
          {lines([
            { dataKey: 'occupancy', name: 'Ocupación', colour: COLOURS.patient },
            { dataKey: 'noShowRate', name: 'No presentados', colour: COLOURS.danger },
          ])}
        </LineChart>
      </Chart>
      {dayBars('Cancelaciones', 'cancellations', [
        { dataKey: 'refunded', name: 'Con reembolso', colour: COLOURS.staff },
        { dataKey: 'notRefunded', name: 'Sin reembolso', colour: COLOURS.danger },
      ])}
      {dayBars(
        'Ingresos por día',
        'revenue',
        [{ dataKey: 'revenue', name: 'Ingresos', colour: COLOURS.patient }],
        dayFrame({ width: 48 }, money, false),
      )}
      <Chart title="Ingresos por tipo de certificado">
        <BarChart data={certificates} layout="vertical" margin={{ left: 8, right: 16 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" fontSize={12} tickFormatter={formatNumber} />
          <YAxis type="category" dataKey="type" width={140} fontSize={12} />
          <Tooltip formatter={money} />
          <Bar isAnimationActive={false} dataKey="revenue" name="Ingresos" fill={COLOURS.staff} />
        </BarChart>
      </Chart>
    </div>
  );
}
