/** The full-screen placeholder shown while a lazy page or remote loads (docs/product/README.md#loading). */
export function LoadingScreen({ text = 'Loading...' }: { text?: string }) {
  return (
    <div className="wk-loading" role="status" aria-live="polite">
      <span className="wk-spinner" aria-hidden="true" />
      <span>{text}</span>
    </div>
  );
}
