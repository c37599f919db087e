interface TablePagerProps {
  page: number;
  pageCount: number;
  total: number;
  /** What the total counts: ['cita', 'citas'] (singular, plural) or one word for both. */
  totalNoun?: string | readonly [string, string];
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** A table's footer: "Anterior" / "Siguiente", "Página N de M" and the total. */
export function TablePager({ page, pageCount, total, totalNoun, onPage, disabled }: TablePagerProps) {
  const [one, other] = typeof totalNoun === 'string' ? [totalNoun, totalNoun] : (totalNoun ?? ['', '']);
  const noun = other ? ` ${total === 1 ? one : other}` : '';
  return (
    <nav className="bo-pager" aria-label="Paginación">
      <button
        type="button"
        className="wk-button wk-button--secondary"
        onClick={() => onPage(page - 1)}
        disabled={disabled || page <= 1}
      >
        Anterior
      </button>
      <span className="bo-pager__status" aria-live="polite">
        Página {page} de {pageCount}
      </span>
      <button
        type="button"
        className="wk-button wk-button--secondary"
        onClick={() => onPage(page + 1)}
        disabled={disabled || page >= pageCount}
      >
        Siguiente
      </button>
      <span className="bo-pager__total">
        Total: {total}
        {noun}
      </span>
    </nav>
  );
}
