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
import { formatMoney, formatPercent, shortDay } from './format';

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
  const money = (value: unknown) => formatMoney(Number(value), summary.currency);
  const pct = (value: unknown) => formatPercent(Number(value) / 100);
  return (
    <div className="bo-dashboard__charts">
      <Chart title="Citas por día y canal">
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} width={32} />
          <Tooltip />
          <Legend />
          <Bar
            isAnimationActive={false}
            dataKey="web"
            name="Web (paciente)"
            stackId="c"
            fill={COLOURS.patient}
          />
          <Bar isAnimationActive={false} dataKey="staff" name="Personal" stackId="c" fill={COLOURS.staff} />
          <Bar isAnimationActive={false} dataKey="kiosk" name="Quiosco" stackId="c" fill={COLOURS.kiosk} />
        </BarChart>
      </Chart>
      <Chart title="Ocupación y ausencias (%)">
        <LineChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis domain={[0, 100]} fontSize={12} width={32} />
          <Tooltip formatter={pct} />
          <Legend />
          <Line
            isAnimationActive={false}
            dataKey="occupancy"
            name="Ocupación"
            stroke={COLOURS.patient}
            strokeWidth={2}
            dot={false}
          />
          <Line
            isAnimationActive={false}
            dataKey="noShowRate"
            name="No presentados"
            stroke={COLOURS.danger}
            strokeWidth={2}
            dot={false}
          />
        </LineChart>
      </Chart>
      <Chart title="Cancelaciones">
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} width={32} />
          <Tooltip />
          <Legend />
          <Bar
            isAnimationActive={false}
            dataKey="refunded"
            name="Con reembolso"
            stackId="x"
            fill={COLOURS.staff}
          />
          <Bar
            isAnimationActive={false}
            dataKey="notRefunded"
            name="Sin reembolso"
            stackId="x"
            fill={COLOURS.danger}
          />
        </BarChart>
      </Chart>
      <Chart title="Ingresos por día">
        <BarChart data={days}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="day" fontSize={12} />
          <YAxis fontSize={12} width={48} />
          <Tooltip formatter={money} />
          <Bar isAnimationActive={false} dataKey="revenue" name="Ingresos" fill={COLOURS.patient} />
        </BarChart>
      </Chart>
      <Chart title="Ingresos por tipo de certificado">
        <BarChart data={certificates} layout="vertical" margin={{ left: 8, right: 16 }}>
          <CartesianGrid strokeDasharray="3 3" horizontal={false} />
          <XAxis type="number" fontSize={12} />
          <YAxis type="category" dataKey="type" width={140} fontSize={12} />
          <Tooltip formatter={money} />
          <Bar isAnimationActive={false} dataKey="revenue" name="Ingresos" fill={COLOURS.staff} />
        </BarChart>
      </Chart>
    </div>
  );
}
