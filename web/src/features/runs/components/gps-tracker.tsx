import { useEffect, useState } from 'react';
import { CONFETTI_AFTER_RUN_MS, Confetti } from '../../../components/confetti.tsx';
import { MIN_RUN_POSITIONS, MIN_RUN_SECONDS } from '../../../../../domain/run/policy.ts';
import { formatDistance } from '../../../../../domain/shared/units.ts';
import { Modal } from '../../../components/modal.tsx';
import type { Goal } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { platform } from '../../../lib/platform/index.ts';
import { useRuns } from '../api/get-runs.ts';
import { gpsPausedMessage } from '../track/screen-gap.ts';
import { countOf, formatDuration } from '../../../lib/format.ts';
import { thinTrack } from '../track/route-projection.ts';
import { RouteMap } from './route-map.tsx';
import { RunSavedSummary } from './run-saved-summary.tsx';
import { useStopFromNotification } from './stop-from-notification.ts';
import { useFinishRun } from './use-finish-run.ts';
import { useGpsTracker } from './use-gps-tracker.ts';
import { useLastTrack } from './use-last-track.ts';
import { useScreenGap } from './use-screen-gap.ts';
import { useScreenWakeLock } from './use-screen-wake-lock.ts';

/**
 * The GPS tracker (§2 /run): start, live time and distance, stop with confirmation, save, summary. Closing the
 * summary hands the current goal (with the run counted) to the page, which shows the goal-complete celebration
 * when the run pushed it to 100% (§4).
 */
export function GpsTracker({ onSummaryClosed }: { readonly onSummaryClosed?: (goal: Goal | null) => void }) {
  const unit = useDistanceUnit();
  const tracker = useGpsTracker();
  const save = useFinishRun(tracker);
  const saved = save.saved;
  const lastTrack = useLastTrack(tracker.state, saved?.run.id ?? null);
  const [confirmStop, setConfirmStop] = useState(false);
  // The web is honest about the screen (issue 24.2): a browser stops GPS when the screen turns off, so it is kept on
  // while tracking, a pause is told on return, and a first run is told beforehand. The app tracks in the background.
  const onWeb = platform().name === 'web';
  useScreenWakeLock(onWeb && tracker.state.isTracking);
  const gapMinutes = useScreenGap(tracker.state);
  const runs = useRuns(100);
  const firstWebRun = onWeb && !tracker.state.isTracking && runs.data?.some((r) => r.source === 'gps') === false;
  const [savedBanner, setSavedBanner] = useState(false);

  // §9: the run-saved banner hides after 3 s.
  useEffect(() => {
    if (!savedBanner) return;
    const id = setTimeout(() => setSavedBanner(false), 3_000);
    return () => clearTimeout(id);
  }, [savedBanner]);

  // The save path (kept on the device first, sent, or waiting to sync): use-finish-run.ts.
  useEffect(() => {
    if (saved) setSavedBanner(true);
  }, [saved]);

  const finish = async () => {
    setConfirmStop(false);
    await save.finish();
  };
  // The tracking notification's Stop Run (native shell) takes the same path as Stop & Save.
  useStopFromNotification(finish);

  // What Stop will do, told before it is done: a run under the policy's minimums is not saved (use-gps-tracker.ts).
  // Judged as stop judges it (seconds rounded); the tracker re-renders each second, so it stays true while it shows.
  const startTime = tracker.state.startTime;
  const runSec = startTime === null ? 0 : Math.round((Date.now() - startTime) / 1000);
  const tooShort = runSec < MIN_RUN_SECONDS || tracker.state.positions.length < MIN_RUN_POSITIONS;

  const closeSummary = () => {
    const goal = saved?.goal ?? null;
    save.clearSaved();
    onSummaryClosed?.(goal);
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
      {tracker.state.isTracking && tracker.state.positions.length > 1 ? (
        <RouteMap
          track={thinTrack(tracker.state.positions, 400)}
          label={`Your route so far: ${formatDistance(tracker.distanceKm, unit)}`}
        />
      ) : null}
      <p className="muted small">{countOf(tracker.state.positions.length, 'GPS point')}</p>
      {tracker.state.isTracking && gapMinutes !== null ? (
        <p className="gps-gap-notice" role="status">
          {gpsPausedMessage(gapMinutes)}. That stretch of your run has no GPS points: keep the screen on while you run.
        </p>
      ) : null}
      {firstWebRun ? (
        <p className="web-tracking-notice muted small">
          Before your first run: in a browser, GPS works only while this page is open and the screen is on (it is kept
          on while you track). The StrideStake app for Android and iPhone tracks with the screen off.
        </p>
      ) : null}
      {tracker.state.isTracking ? (
        <button type="button" className="button danger block large" onClick={() => setConfirmStop(true)}>
          Stop Run
        </button>
      ) : (
        <button type="button" className="button primary block large" onClick={save.start} disabled={save.saving}>
          {save.saving ? 'Saving…' : 'Start Run'}
        </button>
      )}
      {savedBanner ? (
        <p className="run-saved-banner" role="status">
          Run saved!
        </p>
      ) : null}
      {save.queued ? (
        <p className="run-queued-banner" role="status">
          Waiting to sync: no connection, so your run is kept on this phone and sent when you are back online.
        </p>
      ) : null}
      {tracker.error ? (
        <p className="field-error" role="alert">
          {tracker.error}
        </p>
      ) : null}
      {confirmStop ? (
        <Modal
          title="Stop tracking?"
          onClose={() => setConfirmStop(false)}
          footer={
            <>
              <button type="button" className="button ghost" onClick={() => setConfirmStop(false)}>
                Keep Running
              </button>
              <button type="button" className="button danger" onClick={finish}>
                {tooShort ? 'Stop & Discard' : 'Stop & Save'}
              </button>
            </>
          }
        >
          {tooShort ? (
            <p>
              This run is too short to be saved: a run needs at least {MIN_RUN_SECONDS} seconds and {MIN_RUN_POSITIONS}{' '}
              GPS points. Stopping now discards it.
            </p>
          ) : (
            <p>Your run will be saved.</p>
          )}
        </Modal>
      ) : null}
      {saved ? <Confetti durationMs={CONFETTI_AFTER_RUN_MS} /> : null}
      {saved ? <RunSavedSummary run={saved.run} goal={saved.goal} track={lastTrack} onClose={closeSummary} /> : null}
    </section>
  );
}
