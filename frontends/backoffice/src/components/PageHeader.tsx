import type { ReactNode } from 'react';

/** A screen's title (h1) with optional actions on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="bo-page__header">
      <h1>{title}</h1>
      {children && <div className="bo-page__actions">{children}</div>}
    </header>
  );
}
