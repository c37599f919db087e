import type { ReactNode } from 'react';
import { AlertNotice } from './AlertNotice';
import { DataTable, type DataTableProps } from './DataTable';
import { PageHeader } from './PageHeader';

export interface TablePageProps<T> extends Omit<DataTableProps<T>, 'label'> {
  /** The page's heading, which also names the table for assistive technology. */
  title: string;
  /** Why the list could not load, shown above the table; nothing when it loaded. */
  failure?: ReactNode;
  /** Beside the heading (e.g. a link back). */
  actions?: ReactNode;
}

/** A back-office page that is one list: heading, a load failure if any, and the table. */
export function TablePage<T>({ title, failure, actions, ...table }: TablePageProps<T>) {
  return (
    <section className="bo-page">
      <PageHeader title={title}>{actions}</PageHeader>
      {failure ? <AlertNotice>{failure}</AlertNotice> : null}
      <DataTable label={title} {...table} />
    </section>
  );
}
