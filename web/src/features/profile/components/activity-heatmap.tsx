import { Temporal } from 'temporal-polyfill';
import { activityHeatmap } from '../../../../../domain/stats/heatmap.ts';
import { useHeatmapRuns } from '../api/get-heatmap-runs.ts';

/** The 90-day heatmap (§4): 3+ consecutive run days mild, 5+ strong, today outlined, future greyed. */
export function ActivityHeatmap({ timeZone }: { readonly timeZone: string }) {
  const runs = useHeatmapRuns();
  const today = Temporal.Now.plainDateISO(timeZone).toString();
  const cells = activityHeatmap(
    (runs.data ?? []).map((r) => ({
      localDate: Temporal.Instant.from(r.started_at).toZonedDateTimeISO(timeZone).toPlainDate().toString(),
      distance_km: r.distance_km,
    })),
    today,
  );
  return (
    <section className="card" aria-label="Activity heatmap">
      <h2>Last 90 days</h2>
      <div className="heatmap">
        {cells.map((c) => (
          <span
            key={c.date}
            title={`${c.date}: ${c.runCount} run${c.runCount === 1 ? '' : 's'}`}
            className={[
              'cell',
              c.inWindow ? '' : 'out',
              c.runCount > 0 ? 'ran' : '',
              c.highlight !== 'none' ? c.highlight : '',
              c.isToday ? 'today' : '',
              c.isFuture ? 'future' : '',
            ].join(' ')}
          />
        ))}
      </div>
    </section>
  );
}
