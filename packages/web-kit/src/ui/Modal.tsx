import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface ModalProps {
  open: boolean;
  title: string;
  onClose(): void;
  children: ReactNode;
  /** Buttons row under the content. */
  actions?: ReactNode;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * An accessible modal dialog: focus moves in and stays in (Tab cycles), Escape, the backdrop and the
 * close button call onClose, and focus returns where it was. It is a plain fixed layer (not the
 * native top layer) so that the alert dialogs can still open above it.
 */
export function Modal({ open, title, onClose, children, actions }: ModalProps) {
  const panel = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement as HTMLElement | null;
    const first =
      panel.current?.querySelector<HTMLElement>('[data-autofocus]') ??
      panel.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? panel.current)?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus?.();
    };
  }, [open]);

  if (!open) return null;

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !panel.current) return;
    const items = Array.from(panel.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    // A click on the backdrop closes the dialog (a mouse convenience: Escape and the close button do it too).
    // eslint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      className="wk-modal-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {/* The dialog handles Tab (focus trap) and Escape for its whole content. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={panel}
        className="wk-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <div className="wk-modal__header">
          <h2 id={titleId} className="wk-modal__title">
            {title}
          </h2>
          <button type="button" className="wk-modal__close" aria-label="Cerrar" onClick={onClose}>
            ×
          </button>
        </div>
        <div className="wk-modal__content">{children}</div>
        {actions ? <div className="wk-modal__actions">{actions}</div> : null}
      </div>
    </div>
  );
}
