interface TablePagerProps {
  page: number;
  pageCount: number;
  total: number;
  /** The total is the server's estimate: "Total: aprox. 1500000". */
  totalIsEstimate?: boolean;
  /** What the total counts: ['cita', 'citas'] (singular, plural) or one word for both. */
  totalNoun?: string | readonly [string, string];
  onPage: (page: number) => void;
  disabled?: boolean;
}

/** A table's footer: "Anterior" / "Siguiente", "Página N de M" and the total. */
export function TablePager({
  page,
  pageCount,
  total,
  totalIsEstimate,
  totalNoun,
  onPage,
  disabled,
}: TablePagerProps) {
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
        Total:{' '}
        {totalIsEstimate ? (
          <abbr title="Total aproximado: la lista completa no se cuenta en cada consulta">aprox.</abbr>
        ) : null}
        {totalIsEstimate ? ' ' : ''}
        {total}
        {noun}
      </span>
    </nav>
  );
}
