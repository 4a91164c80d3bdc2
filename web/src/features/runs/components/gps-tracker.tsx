import { useEffect, useState } from 'react';
import { CONFETTI_AFTER_RUN_MS, Confetti } from '../../../components/confetti.tsx';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage } from '../../../lib/api-error.ts';
import type { Run } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { formatDuration, formatPace } from '../../../lib/format.ts';
import { useCreateRun } from '../api/create-run.ts';
import { useGpsTracker } from './use-gps-tracker.ts';

/** The GPS tracker (§2 /run): start, live time and distance, stop with confirmation, save, summary. */
export function GpsTracker() {
  const unit = useDistanceUnit();
  const tracker = useGpsTracker();
  const save = useCreateRun();
  const [confirmStop, setConfirmStop] = useState(false);
  const [saved, setSaved] = useState<{ run: Run; goalPercent: number | null } | null>(null);
  const [savedBanner, setSavedBanner] = useState(false);

  // §9: the run-saved banner hides after 3 s.
  useEffect(() => {
    if (!savedBanner) return;
    const id = setTimeout(() => setSavedBanner(false), 3_000);
    return () => clearTimeout(id);
  }, [savedBanner]);

  const finish = async () => {
    setConfirmStop(false);
    const run = tracker.stop();
    if (!run) return;
    try {
      const answer = await save.mutateAsync({
        started_at: run.started_at,
        distance_km: run.distance_km,
        duration_sec: run.duration_sec,
        source: 'gps',
        gps_data: { positions: run.positions },
      });
      setSaved({ run: answer.data, goalPercent: answer.goal?.percentage ?? null });
      setSavedBanner(true);
    } catch (error) {
      tracker.setError(errorMessage(error, 'Failed to save run. Please check your internet connection and try again.'));
    }
  };

  return (
    <section className="card tracker" aria-label="GPS tracker">
      <div className="tracker-readout">
        <div>
          <span className="muted small">Time</span>
          <strong className="big-number">{formatDuration(tracker.elapsedSec)}</strong>
        </div>
        <div>
          <span className="muted small">Distance</span>
          <strong className="big-number">{formatDistance(tracker.distanceKm, unit)}</strong>
        </div>
      </div>
      <p className="muted small">{tracker.state.positions.length} GPS points</p>
      {tracker.state.isTracking ? (
        <button type="button" className="button danger block large" onClick={() => setConfirmStop(true)}>
          Stop Run
        </button>
      ) : (
        <button type="button" className="button primary block large" onClick={tracker.start} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Start Run'}
        </button>
      )}
      {savedBanner ? (
        <p className="run-saved-banner" role="status">
          Run saved!
        </p>
      ) : null}
      {tracker.error ? (
        <p className="field-error" role="alert">
          {tracker.error}
        </p>
      ) : null}
      {confirmStop ? (
        <Modal title="Stop tracking?" onClose={() => setConfirmStop(false)}>
          <p>Your run will be saved.</p>
          <footer className="wizard-actions">
            <button type="button" className="button ghost" onClick={() => setConfirmStop(false)}>
              Keep Running
            </button>
            <button type="button" className="button danger" onClick={finish}>
              Stop &amp; Save
            </button>
          </footer>
        </Modal>
      ) : null}
      {saved ? <Confetti durationMs={CONFETTI_AFTER_RUN_MS} /> : null}
      {saved ? (
        <Modal
          title={saved.goalPercent !== null && saved.goalPercent >= 100 ? 'Goal complete!' : 'Run saved!'}
          onClose={() => setSaved(null)}
        >
          <div className="stat-grid">
            <div className="stat">
              <span className="muted small">Distance</span>
              <strong>{formatDistance(saved.run.distance_km, unit)}</strong>
            </div>
            <div className="stat">
              <span className="muted small">Time</span>
              <strong>{formatDuration(saved.run.duration_sec)}</strong>
            </div>
            <div className="stat">
              <span className="muted small">Pace</span>
              <strong>{formatPace(saved.run.pace_sec_per_km, unit)}</strong>
            </div>
          </div>
          <button type="button" className="button primary block" onClick={() => setSaved(null)}>
            Done
          </button>
        </Modal>
      ) : null}
    </section>
  );
}
