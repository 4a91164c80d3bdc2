/** What a screen shows when its data could not be loaded: what failed, why it may have, and a way to try again. */
export function LoadError({ what, onRetry }: { readonly what: string; readonly onRetry: () => void }) {
  return (
    <div className="load-error" role="alert">
      <p>
        <strong>Couldn’t load {what}</strong>
        <span className="muted small">Check your connection and try again.</span>
      </p>
      <button type="button" className="button ghost small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
