import { formatDistance } from '../../../../../../domain/shared/units.ts';
import { useAuth } from '../../../../lib/auth.tsx';
import { useDistanceUnit } from '../../../../lib/distance-unit.ts';
import { formatDuration } from '../../../../lib/format.ts';
import { announceRunQueueChange, runQueueStore } from '../run-queue.ts';
import { usePendingRuns } from '../use-pending-runs.ts';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  });

/**
 * The runs kept on this device that the server does not have yet (features/runs/offline), above the saved ones on
 * /run and in the run history: "Waiting to sync" until they are sent, or the server's reason when it refused one
 * (kept until the runner discards it: a run is never dropped silently). Says honestly what lateness costs.
 */
export function PendingRuns() {
  const { session } = useAuth();
  const runs = usePendingRuns(session?.user.id ?? null);
  const unit = useDistanceUnit();
  if (runs.length === 0) return null;
  const discard = async (id: string) => {
    if (!window.confirm('Discard this run? It has not been saved to your account.')) return;
    await runQueueStore().remove(id);
    announceRunQueueChange();
  };
  return (
    <section className="card pending-runs" aria-label="Runs on this phone">
      <h2>On this phone</h2>
      <ul className="plain-list">
        {runs.map((run) => (
          <li key={run.id} className="pending-run">
            <span>
              <strong>{formatDistance(run.distanceKm, unit)}</strong> · {formatDuration(run.durationSec)} ·{' '}
              <span className="muted small">{when(run.startedAt)}</span>
            </span>
            {run.refusal === null ? (
              <span className="sync-badge" role="status">
                Waiting to sync
              </span>
            ) : (
              <span className="field-error">
                Not saved: {run.refusal}{' '}
                <button type="button" className="button ghost small" onClick={() => void discard(run.id)}>
                  Discard
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      <p className="muted small">
        Sent as soon as you are back online, once. GPS points that reach the server more than 5 minutes after they were
        taken count for XP, not toward a stake.
      </p>
    </section>
  );
}
