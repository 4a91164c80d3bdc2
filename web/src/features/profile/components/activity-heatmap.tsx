import { Temporal } from 'temporal-polyfill';
import { activityHeatmap } from '../../../../../domain/stats/heatmap.ts';
import { countOf } from '../../../lib/format.ts';
import { useHeatmapRuns } from '../api/get-heatmap-runs.ts';
import { monthLabels } from '../heatmap-months.ts';

const DAY_LABELS = ['Mon', '', 'Wed', '', 'Fri', '', 'Sun'];
const LEGEND = [
  { className: 'cell', label: 'No run' },
  { className: 'cell ran', label: 'Ran' },
  { className: 'cell mild', label: '3+ days in a row' },
  { className: 'cell strong', label: '5+ days in a row' },
  { className: 'cell future', label: 'Days ahead' },
] as const;

/** Week columns share the card's width: the grid fills its card, and scrolls only below 10 px a day. */
const weekColumns = (weeks: number) => `repeat(${weeks}, minmax(10px, 1fr))`;

/**
 * The 90-day heatmap (§4): 3+ consecutive run days mild, 5+ strong, today outlined, future greyed (this week's days
 * still ahead are drawn, dashed, so the week reads whole); months over the week columns, weekdays down the side, and a
 * legend of the colours. The week columns stretch to the card's width (square days); only a screen too narrow for
 * 10 px days scrolls sideways, newest weeks in view.
 */
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
  const runDays = cells.filter((c) => c.inWindow && c.runCount > 0).length;
  const months = monthLabels(cells);
  return (
    <section className="card" aria-label="Activity heatmap">
      <div className="section-head">
        <h2>Last 90 days</h2>
        <span className="muted small">{countOf(runDays, 'run day')}</span>
      </div>
      <div
        className="heatmap-scroll"
        ref={(el) => {
          // The newest weeks are the ones people look for.
          if (el) el.scrollLeft = el.scrollWidth;
        }}
      >
        <div
          className="heatmap-frame"
          role="img"
          aria-label={`${countOf(runDays, 'day')} with a run in the last 90 days`}
        >
          <div
            className="heatmap-months"
            aria-hidden="true"
            style={{ gridTemplateColumns: weekColumns(months.length) }}
          >
            {months.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one label per fixed column
              <span key={i}>{m}</span>
            ))}
          </div>
          <div className="heatmap-days" aria-hidden="true">
            {DAY_LABELS.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: seven fixed rows
              <span key={i}>{d}</span>
            ))}
          </div>
          <div className="heatmap" aria-hidden="true" style={{ gridTemplateColumns: weekColumns(months.length) }}>
            {cells.map((c) => (
              <span
                key={c.date}
                title={c.isFuture ? `${c.date}: ahead` : `${c.date}: ${countOf(c.runCount, 'run')}`}
                className={[
                  'cell',
                  // Only the padding before the window is left blank: this week's days still ahead are drawn, greyed.
                  c.inWindow || c.isFuture ? '' : 'out',
                  c.runCount > 0 ? 'ran' : '',
                  c.highlight !== 'none' ? c.highlight : '',
                  c.isToday ? 'today' : '',
                  c.isFuture ? 'future' : '',
                ].join(' ')}
              />
            ))}
          </div>
        </div>
      </div>
      <ul className="heatmap-legend" aria-label="Legend">
        {LEGEND.map((l) => (
          <li key={l.label}>
            <span className={l.className} aria-hidden="true" />
            {l.label}
          </li>
        ))}
      </ul>
    </section>
  );
}
