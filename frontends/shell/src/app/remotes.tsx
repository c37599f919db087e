import { Component, lazy, Suspense, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LoadingScreen } from '@crm/web-kit';

export type RemoteName = 'backoffice' | 'kiosk';

/**
 * Shown instead of a remote that cannot be loaded (not deployed, network error) or that crashed:
 * the rest of the site keeps working.
 */
export function RemoteUnavailable() {
  return (
    <main className="remote-unavailable" id="main">
      <h1>Esta sección no está disponible en este momento</h1>
      <p>
        No se ha podido cargar esta parte de la aplicación. Inténtelo de nuevo más tarde o contacte con
        nosotros.
      </p>
      <p className="remote-unavailable__actions">
        <button type="button" className="wk-button" onClick={() => window.location.reload()}>
          Reintentar
        </button>
        <Link className="wk-button wk-button--secondary" to="/">
          Volver al inicio
        </Link>
      </p>
    </main>
  );
}

const fallback = { default: RemoteUnavailable as ComponentType };

function remote(load: () => Promise<{ default: ComponentType }>, name: RemoteName) {
  return lazy(() =>
    load().then(
      (module) =>
        typeof module?.default === 'function' || typeof module?.default === 'object' ? module : fallback,
      (error: unknown) => {
        console.warn(`remote "${name}" could not be loaded`, error);
        return fallback;
      },
    ),
  );
}

// Each remote's entry is fetched only when its route is rendered.
const REMOTES: Record<RemoteName, ComponentType> = {
  backoffice: remote(() => import('backoffice/App'), 'backoffice'),
  kiosk: remote(() => import('kiosk/App'), 'kiosk'),
};

class RemoteBoundary extends Component<{ name: RemoteName; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`remote "${this.props.name}" failed`, error, info.componentStack);
  }
  render() {
    return this.state.failed ? <RemoteUnavailable /> : this.props.children;
  }
}

/** A federated remote app, rendered under its route (`/doctor/*`, `/onboarding/*`) with the host's router. */
export function RemoteApp({ name }: { name: RemoteName }) {
  const App = REMOTES[name];
  return (
    <RemoteBoundary name={name}>
      <Suspense fallback={<LoadingScreen />}>
        <App />
      </Suspense>
    </RemoteBoundary>
  );
}
