import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { AgendaEntry, AgendaResponse, AppointmentView } from '@crm/contracts';
import { displayPhone } from '@crm/web-kit';
import { formatDay, formatTime, todayAtCentre } from '@crm/web-kit/time';
import { AlertNotice, PageHeader, PaymentCell, ViewLink } from '@/components';
import { APPOINTMENT_STATUS_LABELS } from '@/lib/appointment-status';
import { useAgenda } from '../api/get-agenda';
import { agendaActions, countsInTotal, minutesWaited, waitedText } from './agenda-labels';
import { useAgendaAction, type AgendaAction } from './use-agenda-action';
import './agenda.css';

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** The statuses whose payment the agenda shows. */
const CHARGEABLE = new Set(['booked', 'checkedIn', 'attended']);

/** The clock the waiting times are counted with, ticking every 15 s. */
function useNow(everyMs = 15_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** The agenda's own buttons, in the order shown; each only when `agendaActions` allows it. */
const ACTION_BUTTONS: Array<{ action: AgendaAction; label: string; danger?: boolean }> = [
  { action: 'checkIn', label: 'Registrar llegada' },
  { action: 'attended', label: 'Atendida' },
  { action: 'noShow', label: 'No presentado', danger: true },
];

interface EntryProps {
  entry: AgendaEntry;
  now: number;
  busy: boolean;
  onAction(entry: AgendaEntry, action: AgendaAction): void;
}

function AgendaItem({ entry, now, busy, onAction }: EntryProps) {
  const who = entry.user?.name ?? entry.name;
  const actions = agendaActions(entry, now);
  const time = formatTime(entry.date);
  const contact = [entry.user?.phone ? displayPhone(entry.user.phone) : '', entry.user?.email ?? '']
    .filter(Boolean)
    .join(' · ');
  return (
    <li className={`bo-agenda__item bo-agenda__item--${entry.status}`} aria-label={`${time} ${who}`}>
      <span className="bo-agenda__time">{time}</span>
      <div className="bo-agenda__who">
        <strong>{who}</strong>
        <span className="bo-agenda__contact" title={contact}>
          {contact}
        </span>
        {entry.channel === 'kiosk' && <span className="bo-agenda__tag">Sin cita previa</span>}
      </div>
      <div className="bo-agenda__state">
        <span className={`bo-badge bo-badge--${entry.status}`}>
          {APPOINTMENT_STATUS_LABELS[entry.status] ?? entry.status}
        </span>
        {entry.status === 'checkedIn' && entry.checkedInAt && (
          <span className="bo-agenda__waited" data-testid="agenda-waited">
            {waitedText(minutesWaited(entry.checkedInAt, now))}
          </span>
        )}
        {/* Who has paid, and "Cobrar" for whoever pays at the desk; nothing to charge once cancelled or missed. */}
        {CHARGEABLE.has(entry.status) && <PaymentCell appointmentId={entry.id} who={who} />}
      </div>
      <div className="bo-agenda__actions">
        <ViewLink to={`/doctor/appointments/${entry.id}`} label={`Ver la cita de ${who}`} />
        {ACTION_BUTTONS.filter(({ action }) => actions[action]).map(({ action, label, danger }) => (
          <button
            key={action}
            type="button"
            className={`wk-button${danger ? ' wk-button--danger' : ''} bo-small`}
            disabled={busy}
            onClick={() => onAction(entry, action)}
          >
            {label}
          </button>
        ))}
      </div>
    </li>
  );
}

/**
 * "Agenda de hoy" (/doctor/agenda, DOCTOR and ADMIN): the day's appointments and walk-ins in time
 * order with their status, how long the checked-in ones have waited, and the day's actions (arrival,
 * attended, no-show, open the appointment and its record form). Refreshed every 5 s and on focus;
 * another day can be picked (`?date=YYYY-MM-DD`, default today at the centre).
 */
export default function AgendaPage() {
  const [params, setParams] = useSearchParams();
  const today = todayAtCentre();
  const asked = params.get('date') ?? '';
  const day = DAY_PATTERN.test(asked) ? asked : today;
  const { data, error, isLoading, mutate } = useAgenda(day);
  const now = useNow();

  const apply = useCallback(
    (changed: AppointmentView) =>
      mutate(
        (current: AgendaResponse | undefined) =>
          current && {
            ...current,
            appointments: current.appointments.map((a) =>
              a.id === changed.id
                ? {
                    ...a,
                    status: changed.status,
                    ...(changed.checkedInAt ? { checkedInAt: changed.checkedInAt } : {}),
                    ...(changed.endedAt ? { endedAt: changed.endedAt } : {}),
                  }
                : a,
            ),
          },
        { revalidate: false },
      ),
    [mutate],
  );
  const refresh = useCallback(() => mutate(), [mutate]);
  const { run, pending } = useAgendaAction(apply, refresh);

  const pickDay = (value: string) => {
    const next = new URLSearchParams(params);
    if (!value || value === today) next.delete('date');
    else next.set('date', value);
    setParams(next, { replace: true });
  };

  // While another day loads, the previous one's list must not pass for it.
  const shown = data && data.date === day ? data : undefined;
  const entries = shown?.appointments ?? [];
  const total = entries.filter(countsInTotal).length;
  const waiting = entries.filter((a) => a.status === 'checkedIn').length;
  const title = day === today ? 'Agenda de hoy' : `Agenda del ${formatDay(day)}`;

  return (
    <section className="bo-page bo-agenda">
      <PageHeader title={title}>
        <label className="bo-agenda__day">
          <span>Día</span>
          <input
            type="date"
            className="wk-input"
            value={day}
            onChange={(event) => pickDay(event.target.value)}
          />
        </label>
        {day !== today && (
          <button type="button" className="wk-button wk-button--secondary" onClick={() => pickDay(today)}>
            Hoy
          </button>
        )}
      </PageHeader>
      {error && <AlertNotice>No se pudo cargar la agenda.</AlertNotice>}
      {shown && (
        <p className="bo-lead" aria-live="polite">
          {total === 1 ? '1 cita' : `${total} citas`}
          {waiting > 0 ? ` · ${waiting} en espera` : ''}
        </p>
      )}
      {!shown && (isLoading || data) && !error && <p className="bo-empty">Cargando agenda...</p>}
      {shown && entries.length === 0 && <p className="bo-empty">No hay citas para este día.</p>}
      {entries.length > 0 && (
        <ol className="bo-agenda__list" aria-label={title}>
          {entries.map((entry) => (
            <AgendaItem key={entry.id} entry={entry} now={now} busy={pending === entry.id} onAction={run} />
          ))}
        </ol>
      )}
    </section>
  );
}
