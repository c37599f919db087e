import type { FormEvent, ReactNode } from 'react';

/** The centred card of the account screens (max width 600 px). */
export function AuthCard({
  title,
  children,
  onSubmit,
  footer,
  intro,
}: {
  title: string;
  children: ReactNode;
  /** Absent: the children bring their own form (the second factor's set-up). */
  onSubmit?(e: FormEvent<HTMLFormElement>): void;
  footer?: ReactNode;
  intro?: ReactNode;
}) {
  return (
    <div className="auth-page">
      <section className="auth-card" aria-labelledby="auth-card-title">
        <h1 id="auth-card-title" className="auth-card__title">
          {title}
        </h1>
        {intro ? <p className="auth-card__intro">{intro}</p> : null}
        {onSubmit ? (
          <form className="auth-card__form" onSubmit={onSubmit} noValidate={false}>
            {children}
          </form>
        ) : (
          children
        )}
        {footer ? <div className="auth-card__footer">{footer}</div> : null}
      </section>
    </div>
  );
}
