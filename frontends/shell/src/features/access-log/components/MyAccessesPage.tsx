import { useState } from 'react';
import { Link } from 'react-router-dom';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { usePageTitle } from '@/lib/page-title';
import { useMyAccesses } from '../api/get-my-accesses';
import { accessSentence, roleName } from './access-wording';
import './my-accesses.css';

const PAGE_SIZE = 20;
const TITLE = 'Quién ha consultado mis datos';

/**
 * "Quién ha consultado mis datos" (/user/accesos, docs/product/rights-and-access-trail.md#my-accesses): every
 * access of the staff or the kiosk to the patient's own data, newest first — who (name and role, never an
 * id), what, when (Atlantic/Canary).
 */
export default function MyAccessesPage() {
  usePageTitle(TITLE);
  const [page, setPage] = useState(1);
  const { data, error, isLoading } = useMyAccesses(page, PAGE_SIZE);
  const totalPages = Math.max(1, data?.totalPages ?? 1);
  const entries = data?.entries ?? [];

  return (
    <div className="page my-accesses">
      <header className="page__header">
        <h1>{TITLE}</h1>
        <p>
          Cada vez que alguien del personal del centro o el quiosco de entrada consulta o modifica sus datos,
          su cita o su historia clínica, queda registrado aquí. Las horas son de Canarias.
        </p>
      </header>
      <section className="my-accesses__card" aria-live="polite" aria-busy={isLoading}>
        {isLoading && !data ? (
          <p>Cargando accesos…</p>
        ) : error && !data ? (
          <p role="alert">No se han podido cargar los accesos. Inténtelo de nuevo más tarde.</p>
        ) : entries.length === 0 ? (
          <p className="my-accesses__empty">Nadie del personal ha consultado sus datos todavía.</p>
        ) : (
          <>
            <ol className="my-accesses__list" aria-label="Accesos a sus datos">
              {entries.map((entry, index) => (
                <li key={`${entry.at}-${index}`} className="my-accesses__item">
                  <time className="my-accesses__when" dateTime={entry.at}>
                    <span>{formatDate(entry.at)}</span> <span>{formatTime(entry.at)}</span>
                  </time>
                  <span className="my-accesses__what">{accessSentence(entry.action, entry.resource)}</span>
                  <span className="my-accesses__who">
                    {entry.actorName ? `${entry.actorName} · ` : ''}
                    {roleName(entry.actorRol)}
                  </span>
                </li>
              ))}
            </ol>
            <nav className="my-accesses__pager" aria-label="Paginación">
              {totalPages > 1 && (
                <>
                  <button
                    type="button"
                    className="wk-button wk-button--secondary"
                    onClick={() => setPage((p) => p - 1)}
                    disabled={page <= 1}
                  >
                    Anterior
                  </button>
                  <span className="my-accesses__status" aria-live="polite">
                    Página {Math.min(page, totalPages)} de {totalPages}
                  </span>
                  <button
                    type="button"
                    className="wk-button wk-button--secondary"
                    onClick={() => setPage((p) => p + 1)}
                    disabled={page >= totalPages}
                  >
                    Siguiente
                  </button>
                </>
              )}
              <span className="my-accesses__total">
                Total: {data?.total ?? 0} {data?.total === 1 ? 'acceso' : 'accesos'}
              </span>
            </nav>
          </>
        )}
      </section>
      <p className="my-accesses__back">
        <Link to="/user">Volver a Mi Cita</Link>
      </p>
    </div>
  );
}
