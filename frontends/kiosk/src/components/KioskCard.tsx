import type { ReactNode } from 'react';

/**
 * The kiosk's whole screen (service-account layout, no header): the centre's logo and one card. While
 * `busy`, an overlay with a spinner and "Cargando..." covers the card (docs/product/kiosk.md#busy-overlay)
 * and takes its touches.
 */
export function KioskCard({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <main className="kiosk" id="main">
      <img className="kiosk__logo" src="/assets/images/logo.png" alt="Centro de Reconocimiento Médico" />
      <section className="kiosk-card" aria-busy={busy}>
        {children}
        {busy && (
          <div className="kiosk-busy" role="status" aria-live="polite" data-testid="kiosk-busy">
            <span className="wk-spinner kiosk-busy__spinner" aria-hidden="true" />
            <span>Cargando...</span>
          </div>
        )}
      </section>
    </main>
  );
}
