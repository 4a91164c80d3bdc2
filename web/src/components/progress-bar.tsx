/** A horizontal bar filled to `fraction` (0..1). */
export function ProgressBar({ fraction, label }: { readonly fraction: number; readonly label: string }) {
  const pct = Math.max(0, Math.min(1, fraction)) * 100;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={Math.round(pct)}
      aria-valuemin={0}
      aria-valuemax={100}
    >
      <div className="progress-fill" style={{ width: `${pct}%` }} />
    </div>
  );
}
