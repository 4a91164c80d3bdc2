import { useState } from 'react';
import { Link } from 'react-router';
import { LoadError } from '../../components/load-error.tsx';
import { Page } from '../../components/page.tsx';
import { PendingRuns } from '../../features/runs/offline/components/pending-runs.tsx';
import { Celebrations } from '../../features/celebrations/components/celebrations.tsx';
import type { Goal } from '../../lib/api-types.ts';
import { useRuns } from '../../features/runs/api/get-runs.ts';
import { GpsTracker } from '../../features/runs/components/gps-tracker.tsx';
import { ImportRunFile } from '../../features/runs/components/import-run-file.tsx';
import { RunList } from '../../features/runs/components/run-list.tsx';
import { useDistanceUnit } from '../../lib/distance-unit.ts';
import { xpPerUnitText } from '../../lib/xp-per-unit.ts';

const HISTORY_LIMIT = 100;

/**
 * Run tracking (§2 /run): connected-apps prompt, tracker, the last 5 runs, How It Works. When the run summary
 * closes, the goal-complete celebration follows at once if the run completed the goal (§4), here rather than on the
 * next dashboard visit; it is remembered per goal, so the dashboard does not show it again.
 */
export function RunRoute() {
  const runs = useRuns(HISTORY_LIMIT);
  const all = runs.data ?? [];
  const [afterRun, setAfterRun] = useState<Goal | null>(null);
  const unit = useDistanceUnit();
  return (
    <Page title="Run">
      <Link to="/connected-apps" className="card prompt-card">
        <strong>Sync runs automatically</strong>
        <span className="muted small">Connect Strava so every run counts toward your goal →</span>
      </Link>
      <GpsTracker onSummaryClosed={setAfterRun} />
      {afterRun ? <Celebrations key={afterRun.id} goal={afterRun} enabled /> : null}
      <PendingRuns />
      <ImportRunFile />
      <section className="card">
        <div className="section-head">
          <h2>Recent Runs</h2>
          {all.length > 0 ? <Link to="/run-history">View All ({all.length})</Link> : null}
        </div>
        {runs.isError ? (
          <LoadError what="your runs" onRetry={() => void runs.refetch()} />
        ) : (
          <RunList runs={all.slice(0, 5)} onRunTab />
        )}
      </section>
      <section className="card how-it-works">
        <h2>How It Works</h2>
        <ol className="plain-list">
          <li>Tap Start Run and keep this screen open while you run.</li>
          <li>Tap Stop when you finish; runs need at least 60 seconds and 2 GPS points.</li>
          <li>Your run counts toward this week’s goal and earns {xpPerUnitText(unit)}.</li>
        </ol>
      </section>
    </Page>
  );
}
