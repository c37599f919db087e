/**
 * Neutral stand-ins for the centre's facts while `GET /config/centre` loads: a bar as tall as the
 * text it replaces (so nothing moves when the text arrives) and never a guessed value.
 * build/prerender-first-screens.ts writes the same markup into index.html.
 */
export function Placeholder({ width }: { width: string }) {
  return (
    <span className="fact-placeholder" style={{ width }} aria-hidden="true">
      {'\u00a0'}
    </span>
  );
}

/** A paragraph of placeholder lines, for a text that is mostly facts. */
export function PlaceholderText({ lines = 2 }: { lines?: number }) {
  return (
    <p className="fact-placeholder-text" aria-hidden="true">
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="fact-placeholder" style={{ width: i === lines - 1 ? '60%' : '100%' }}>
          {'\u00a0'}
        </span>
      ))}
    </p>
  );
}

/** Said instead of a fact that could not be loaded (the rest of the page keeps working). */
export const FACTS_UNAVAILABLE =
  'Esta información no está disponible en este momento. Inténtelo de nuevo más tarde.';
