/** Any unknown path: a bare heading. */
export function NotFound() {
  return (
    <main id="main" className="not-found">
      <h1>404</h1>
    </main>
  );
}
