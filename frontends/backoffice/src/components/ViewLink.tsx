import { Link } from 'react-router-dom';

/** The small "Ver" button of a row that opens its detail page; `label` says what it opens. */
export function ViewLink({ to, label }: { to: string; label: string }) {
  return (
    <Link className="wk-button wk-button--secondary bo-small" to={to} aria-label={label}>
      Ver
    </Link>
  );
}
