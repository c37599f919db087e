import { useFocusOnMount } from '@/lib/use-focus-on-mount';

/** Step 3 (SPEC §2): "¡Todo listo!", the waiting message, "Hecho". */
export function CompleteStep({ onDone }: { onDone(): void }) {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="kiosk-form">
      <h1 ref={ref} className="kiosk-title" tabIndex={-1}>
        ¡Todo listo!
      </h1>
      <p className="kiosk-message">En breve seras atendido por nuestro personal. Gracias por tu paciencia.</p>
      <button type="button" className="wk-button kiosk-button" onClick={onDone}>
        Hecho
      </button>
    </div>
  );
}
