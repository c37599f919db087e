import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** The router's error screen (SPEC §2): "Unexpected Application Error!" with the status text or message. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <main className="route-error" id="main">
      <h2>Unexpected Application Error!</h2>
      <h3>{detail}</h3>
    </main>
  );
}
