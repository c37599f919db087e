import type { Table } from '@tanstack/react-table';

/** The "Columnas" picker: one checkbox per column that can be hidden. */
export function ColumnPicker<T>({ table }: { table: Table<T> }) {
  const columns = table.getAllLeafColumns().filter((column) => column.getCanHide());
  if (columns.length === 0) return null;
  return (
    <details className="bo-columns">
      <summary className="wk-button wk-button--secondary">Columnas</summary>
      <fieldset className="bo-columns__menu">
        <legend className="wk-visually-hidden">Columnas visibles</legend>
        {columns.map((column) => (
          <label key={column.id}>
            <input
              type="checkbox"
              checked={column.getIsVisible()}
              onChange={column.getToggleVisibilityHandler()}
            />
            {columnLabel(column.columnDef.meta, column.columnDef.header, column.id)}
          </label>
        ))}
      </fieldset>
    </details>
  );
}

/** A column's name in the picker: `meta.label`, else a string header, else its id. */
function columnLabel(meta: unknown, header: unknown, id: string): string {
  const label = (meta as { label?: unknown } | undefined)?.label;
  if (typeof label === 'string') return label;
  return typeof header === 'string' ? header : id;
}
