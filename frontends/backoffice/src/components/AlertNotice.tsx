import type { ReactNode } from 'react';

/** A page-level problem (a list that could not load, a refused action), announced to screen readers. */
export function AlertNotice({ children }: { children: ReactNode }) {
  return (
    <p className="bo-notice" role="alert">
      {children}
    </p>
  );
}
