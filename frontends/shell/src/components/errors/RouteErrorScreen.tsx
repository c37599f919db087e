import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';

/** The router's error screen: "Unexpected Application Error!" with the error's message. */
function RouteErrorScreen({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="route-error" id="main">
      <h2>Unexpected Application Error!</h2>
      <h3>{detail}</h3>
    </main>
  );
}

interface BoundaryState {
  error?: unknown;
}

/** Catches what a page throws while rendering and shows the error screen instead of a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  state: BoundaryState = {};

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error ?? new Error('Unknown error') };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('page failed to render', error, info.componentStack);
  }

  render() {
    return this.state.error === undefined ? (
      this.props.children
    ) : (
      <RouteErrorScreen error={this.state.error} />
    );
  }
}

/**
 * The pages' error boundary. The shell uses the declarative router (BrowserRouter), which has no
 * `errorElement`: this boundary takes its place, and starts afresh on every navigation (keyed by
 * the path) so that one broken page does not hide the next.
 */
export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary key={pathname}>{children}</ErrorBoundary>;
}
