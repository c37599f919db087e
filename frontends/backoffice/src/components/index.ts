export { DataTable } from './DataTable';
export type { DataTableProps, ServerPagination } from './DataTable';
export { ColumnPicker } from './ColumnPicker';
export { TablePager } from './TablePager';
export { useDebouncedSearch, useDebouncedValue, SEARCH_DEBOUNCE_MS } from './use-debounced-value';
export { usePageSize, useIsWideWindow, WIDE_WINDOW_PX } from './use-page-size';
export { usePersistedVisibility } from './use-persisted-visibility';
export { SearchBox } from './SearchBox';
export { PageHeader } from './PageHeader';
