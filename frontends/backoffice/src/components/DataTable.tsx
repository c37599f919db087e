import { useState, type ReactNode } from 'react';
import {
  flexRender,
  getCoreRowModel,
  getPaginationRowModel,
  getSortedRowModel,
  useReactTable,
  type Column,
  type ColumnDef,
  type Header,
  type PaginationState,
  type SortingState,
} from '@tanstack/react-table';
import { ColumnPicker } from './ColumnPicker';
import { TablePager } from './TablePager';
import { usePersistedVisibility } from './use-persisted-visibility';
import './data-table.css';

/** Server-side pagination: the table shows `data` as one page and asks for others. `page` is 1-based. */
export interface ServerPagination {
  page: number;
  totalPages: number;
  total: number;
  /** The server estimated the total (an unfiltered list of a large collection): shown as "aprox.". */
  totalIsEstimate?: boolean;
  onPageChange: (page: number) => void;
}

export interface DataTableProps<T> {
  /** Accessible name of the table (e.g. "Listado de Citas"). */
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tanstack's own column type
  columns: ColumnDef<T, any>[];
  data: T[];
  /** Rows per page (client pagination) — with `server`, only used for the page the server returned. */
  pageSize: number;
  emptyText: string;
  loading?: boolean;
  loadingText?: string;
  initialSorting?: SortingState;
  /** localStorage key that keeps the "Columnas" choice across reloads (one key per list). */
  columnVisibilityKey?: string;
  /** Server pagination; without it the table paginates `data` itself. */
  server?: ServerPagination;
  /** Controls shown before the "Columnas" picker (a search box). */
  toolbar?: ReactNode;
  /** What the total counts, singular and plural (['cita', 'citas']): "Total: 8 citas". */
  totalNoun?: string | readonly [string, string];
  getRowId?: (row: T, index: number) => string;
}

/**
 * The back office's table (react-table): sortable headers (a click on the sorted column reverses it,
 * asc ⇄ desc, it never drops the order), "Columnas" visibility picker (optionally persisted),
 * resizable columns, client or server pagination with "Anterior"/"Siguiente", "Página N de M" and the
 * total, and loading/empty rows. On a phone each row is a card (data-table.css), its cells labelled
 * with their column's header. Filtering is the caller's: pass the filtered `data`.
 */
export function DataTable<T>({
  label,
  columns,
  data,
  pageSize,
  emptyText,
  loading = false,
  loadingText = 'Cargando...',
  initialSorting = [],
  columnVisibilityKey,
  server,
  toolbar,
  totalNoun,
  getRowId,
}: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting);
  const [columnVisibility, setColumnVisibility] = usePersistedVisibility(columnVisibilityKey);
  const [pagination, setPagination] = useState<PaginationState>({ pageIndex: 0, pageSize });
  const effectivePagination = server
    ? { pageIndex: Math.max(0, server.page - 1), pageSize }
    : { pageIndex: pagination.pageIndex, pageSize };

  // eslint-disable-next-line react-hooks/incompatible-library -- react-table returns fresh functions by design
  const table = useReactTable({
    data,
    columns,
    getRowId,
    state: { sorting, columnVisibility, pagination: effectivePagination },
    onSortingChange: setSorting,
    onColumnVisibilityChange: setColumnVisibility,
    onPaginationChange: setPagination,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    // asc → desc → asc …: a click on the sorted column reverses it instead of dropping the order.
    enableSortingRemoval: false,
    getPaginationRowModel: server ? undefined : getPaginationRowModel(),
    manualPagination: Boolean(server),
    pageCount: server ? Math.max(1, server.totalPages) : undefined,
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    autoResetPageIndex: !server,
  });

  const pageCount = server ? Math.max(1, server.totalPages) : Math.max(1, table.getPageCount());
  const pageNumber = server
    ? Math.min(server.page, pageCount)
    : Math.min(pagination.pageIndex + 1, pageCount);
  const total = server ? server.total : data.length;
  const rows = table.getRowModel().rows;
  const visibleColumns = table.getVisibleLeafColumns().length;
  const goTo = (page: number) => {
    if (server) server.onPageChange(page);
    else table.setPageIndex(page - 1);
  };

  return (
    <div className="bo-table">
      <div className="bo-table__toolbar">
        {toolbar}
        <ColumnPicker table={table} />
      </div>
      <div className="bo-table__scroll">
        <table
          className="bo-table__grid"
          aria-label={label}
          aria-busy={loading}
          style={{ minWidth: table.getTotalSize() }}
        >
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <HeaderCell key={header.id} header={header} />
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {loading ? (
              <tr>
                <td colSpan={visibleColumns} className="bo-table__message">
                  <span role="status">{loadingText}</span>
                </td>
              </tr>
            ) : rows.length === 0 ? (
              <tr>
                <td colSpan={visibleColumns} className="bo-table__message">
                  {emptyText}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={row.id}>
                  {row.getVisibleCells().map((cell) => (
                    <td
                      key={cell.id}
                      style={{ width: cell.column.getSize() }}
                      data-label={columnName(cell.column)}
                      data-actions={cell.column.accessorFn ? undefined : ''}
                    >
                      {flexRender(cell.column.columnDef.cell, cell.getContext())}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <TablePager
        page={pageNumber}
        pageCount={pageCount}
        total={total}
        totalIsEstimate={server?.totalIsEstimate}
        totalNoun={totalNoun}
        onPage={goTo}
        disabled={loading}
      />
    </div>
  );
}

/** The column's header text (the label of its cells in the phone layout). */
function columnName<T>(column: Column<T, unknown>): string {
  const header = column.columnDef.header;
  return typeof header === 'string' ? header : column.id;
}

function HeaderCell<T>({ header }: { header: Header<T, unknown> }) {
  const column = header.column;
  const sorted = column.getIsSorted();
  const content = header.isPlaceholder ? null : flexRender(column.columnDef.header, header.getContext());
  return (
    <th
      colSpan={header.colSpan}
      style={{ width: header.getSize() }}
      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
    >
      {column.getCanSort() ? (
        <button type="button" className="bo-table__sort" onClick={column.getToggleSortingHandler()}>
          {content}
          <span aria-hidden="true" className="bo-table__sort-icon">
            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
          </span>
        </button>
      ) : (
        content
      )}
      {column.getCanResize() && <ColumnResizer header={header} />}
    </th>
  );
}

/** The drag handle on a header's right edge; arrow keys resize too (10 px a press). */
function ColumnResizer<T>({ header }: { header: Header<T, unknown> }) {
  const column = header.column;
  const name = columnName(column);
  const resizeBy = (delta: number) =>
    header.getContext().table.setColumnSizing((old) => ({
      ...old,
      [column.id]: Math.max(column.columnDef.minSize ?? 40, column.getSize() + delta),
    }));
  return (
    <button
      type="button"
      className={column.getIsResizing() ? 'bo-table__resizer is-resizing' : 'bo-table__resizer'}
      onMouseDown={header.getResizeHandler()}
      onTouchStart={header.getResizeHandler()}
      onDoubleClick={() => column.resetSize()}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') resizeBy(-10);
        else if (event.key === 'ArrowRight') resizeBy(10);
        else return;
        event.preventDefault();
      }}
      aria-label={`Ancho de la columna ${name} (flechas para cambiarlo)`}
    />
  );
}
