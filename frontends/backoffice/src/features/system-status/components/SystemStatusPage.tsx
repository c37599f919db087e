import { useState, type FormEvent } from 'react';
import type { DeadLetterView, DeployableStatusView, Readiness } from '@crm/contracts';
import { confirmDialog, showRequestError, showSuccess, useSession } from '@crm/web-kit';
import { AlertNotice, PageHeader } from '@/components';
import { discardDeadLetter, redeliverDeadLetter, useDeadLetters, useSystemStatus } from '../api/system';
import './system-status.css';

const READINESS: Record<Readiness, string> = {
  ready: 'Operativo',
  'not-ready': 'No preparado',
  unreachable: 'No responde',
  unknown: 'Sin dirección',
};

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('es-ES', { timeZone: 'Europe/Madrid' }) : '—';

function lag(deployable: DeployableStatusView): string {
  if (!deployable.outbox) return '—';
  if (deployable.outbox.pending === 0) return 'Al día';
  const seconds = Math.round(deployable.outbox.lagMs / 1000);
  return `${deployable.outbox.pending} pendientes (${seconds} s)`;
}

/**
 * "Estado del sistema" (ADMIN, docs/product/back-office.md#system-status): each deployable's
 * readiness and version, the queues' depth, the outbox lag, and the dead letters, which an ADMIN
 * sends back to their queue or discards with a reason (both recorded in the access trail).
 */
export default function SystemStatusPage() {
  const isAdmin = useSession().user?.rol === 'ADMIN';
  const status = useSystemStatus(isAdmin);
  const letters = useDeadLetters(isAdmin);
  const [discarding, setDiscarding] = useState<DeadLetterView | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (!isAdmin)
    return (
      <section className="bo-page">
        <PageHeader title="Estado del sistema" />
        <AlertNotice>Solo los administradores pueden ver el estado del sistema.</AlertNotice>
      </section>
    );

  const refresh = async () => {
    await Promise.all([letters.mutate(), status.mutate()]);
  };

  const redeliver = async (letter: DeadLetterView) => {
    if (
      !(await confirmDialog({
        title: '¿Reenviar el mensaje?',
        text: `Se devolverá a la cola ${letter.queue} una sola vez.`,
        icon: 'question',
      }))
    )
      return;
    try {
      await redeliverDeadLetter(letter);
      void showSuccess('Mensaje reenviado', 'Ha vuelto a su cola.');
    } catch (err) {
      void showRequestError(err);
    }
    await refresh();
  };

  const discard = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!discarding) return;
    if (reason.trim().length < 3) {
      setReasonError('Indique el motivo (al menos 3 caracteres)');
      return;
    }
    setBusy(true);
    try {
      await discardDeadLetter(discarding, reason.trim());
      setDiscarding(null);
      setReason('');
      void showSuccess('Mensaje descartado', 'Queda anotado en el registro de accesos.');
    } catch (err) {
      void showRequestError(err);
    } finally {
      setBusy(false);
    }
    await refresh();
  };

  const deadLetters = letters.data?.deadLetters ?? [];

  return (
    <section className="bo-page bo-system">
      <PageHeader title="Estado del sistema" />
      {status.error || letters.error ? (
        <AlertNotice>No se pudo leer el estado del sistema.</AlertNotice>
      ) : null}

      <h2>Servicios</h2>
      <div className="bo-system__scroll">
        <table className="bo-system__table" aria-label="Servicios">
          <thead>
            <tr>
              <th scope="col">Servicio</th>
              <th scope="col">Estado</th>
              <th scope="col">Versión</th>
              <th scope="col">Bandeja de salida</th>
            </tr>
          </thead>
          <tbody>
            {(status.data?.deployables ?? []).map((d) => (
              <tr key={d.name}>
                <td data-label="Servicio">{d.name}</td>
                <td data-label="Estado">
                  <span className={`bo-system__badge bo-system__badge--${d.readiness}`}>
                    {READINESS[d.readiness]}
                  </span>
                </td>
                <td data-label="Versión">
                  {d.version ?? '—'}
                  {d.commit ? ` (${d.commit.slice(0, 7)})` : ''}
                </td>
                <td data-label="Bandeja de salida">{lag(d)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Colas</h2>
      <div className="bo-system__scroll">
        <table className="bo-system__table" aria-label="Colas">
          <thead>
            <tr>
              <th scope="col">Cola</th>
              <th scope="col">En espera</th>
              <th scope="col">Reintentos</th>
              <th scope="col">Fallidos</th>
              <th scope="col">Consumidores</th>
            </tr>
          </thead>
          <tbody>
            {(status.data?.queues ?? []).map((q) => (
              <tr key={q.queue}>
                <td data-label="Cola">{q.queue}</td>
                <td data-label="En espera">{q.messages ?? '—'}</td>
                <td data-label="Reintentos">{q.retry ?? '—'}</td>
                <td data-label="Fallidos">{q.deadLetters ?? '—'}</td>
                <td data-label="Consumidores">{q.consumers ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <h2>Mensajes fallidos</h2>
      {deadLetters.length === 0 ? (
        <p>{letters.data ? 'No hay mensajes fallidos.' : 'Cargando…'}</p>
      ) : (
        <ul className="bo-system__letters" aria-label="Mensajes fallidos">
          {deadLetters.map((letter) => (
            <li key={`${letter.queue}/${letter.messageId}`} className="bo-system__letter">
              <dl>
                <dt>Cola</dt>
                <dd>{letter.queue}</dd>
                <dt>Evento</dt>
                <dd>{letter.event ?? letter.routingKey ?? '—'}</dd>
                <dt>Identificador</dt>
                <dd>{letter.eventId ?? letter.messageId}</dd>
                <dt>Motivo</dt>
                <dd>{letter.reason ?? '—'}</dd>
                <dt>Fallido desde</dt>
                <dd>{when(letter.deadLetteredAt)}</dd>
              </dl>
              <div className="bo-system__actions">
                <button
                  type="button"
                  className="wk-button wk-button--secondary"
                  onClick={() => void redeliver(letter)}
                >
                  Reenviar
                </button>
                <button
                  type="button"
                  className="wk-button"
                  onClick={() => {
                    setDiscarding(letter);
                    setReason('');
                    setReasonError(null);
                  }}
                >
                  Descartar
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}

      {discarding ? (
        <div className="bo-system__backdrop">
          <form
            className="bo-system__dialog"
            role="dialog"
            aria-modal="true"
            aria-labelledby="bo-system-discard-title"
            onSubmit={(e) => void discard(e)}
            noValidate
          >
            <h2 id="bo-system-discard-title">¿Descartar el mensaje?</h2>
            <p>
              {discarding.event ?? discarding.routingKey} ({discarding.eventId ?? discarding.messageId}) no se
              procesará. Quedará anotado en el registro de accesos con su motivo.
            </p>
            <label htmlFor="bo-system-reason">Motivo</label>
            <textarea
              id="bo-system-reason"
              value={reason}
              maxLength={500}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? 'bo-system-reason-error' : undefined}
              onChange={(e) => setReason(e.target.value)}
            />
            {reasonError ? (
              <p id="bo-system-reason-error" className="bo-system__error" role="alert">
                {reasonError}
              </p>
            ) : null}
            <div className="bo-system__actions">
              <button type="submit" className="wk-button" disabled={busy}>
                Descartar mensaje
              </button>
              <button
                type="button"
                className="wk-button wk-button--secondary"
                onClick={() => setDiscarding(null)}
              >
                Cancelar
              </button>
            </div>
          </form>
        </div>
      ) : null}
    </section>
  );
}
