import { Temporal } from 'temporal-polyfill';

/** A run placed on the user's local calendar. */
export interface HeatmapRun {
  /** Local date of the start in the user's zone, 'YYYY-MM-DD'. */
  readonly localDate: string;
  readonly distance_km: number;
}

/** How a day stands out: part of 3+ consecutive run days is mild, 5+ strong (§4). */
export type HeatmapHighlight = 'none' | 'mild' | 'strong';

/** One day of the profile heatmap. */
export interface HeatmapCell {
  readonly date: string;
  readonly runCount: number;
  /** 2 decimals. */
  readonly distanceKm: number;
  readonly highlight: HeatmapHighlight;
  /** Outlined. */
  readonly isToday: boolean;
  /** Greyed: after today. */
  readonly isFuture: boolean;
  /** False for the padding days before the window that only complete the first week column. */
  readonly inWindow: boolean;
}

/** Days the heatmap covers, ending today (§9). */
export const HEATMAP_DAYS = 90;
/** Consecutive run days needed for the mild and strong highlights (§4). */
export const MILD_RUN_DAYS = 3;
export const STRONG_RUN_DAYS = 5;

/**
 * The heatmap as whole Monday-to-Sunday weeks: from the Monday on or before the first day of the window to the
 * Sunday on or after today, so the grid has no ragged edges. Runs outside the window are ignored.
 */
export function activityHeatmap(
  runs: readonly HeatmapRun[],
  today: string,
  days = HEATMAP_DAYS,
): readonly HeatmapCell[] {
  const end = Temporal.PlainDate.from(today);
  const windowStart = end.subtract({ days: days - 1 });
  const gridStart = windowStart.subtract({ days: windowStart.dayOfWeek - 1 });
  const gridEnd = end.add({ days: 7 - end.dayOfWeek });
  const inWindow = (d: Temporal.PlainDate) =>
    Temporal.PlainDate.compare(d, windowStart) >= 0 && Temporal.PlainDate.compare(d, end) <= 0;

  const byDate = new Map<string, { count: number; hundredths: number }>();
  for (const run of runs) {
    if (!inWindow(Temporal.PlainDate.from(run.localDate))) continue;
    const day = byDate.get(run.localDate) ?? { count: 0, hundredths: 0 };
    byDate.set(run.localDate, {
      count: day.count + 1,
      hundredths: day.hundredths + Math.max(0, Math.round(run.distance_km * 100)),
    });
  }

  const dates: Temporal.PlainDate[] = [];
  for (let d = gridStart; Temporal.PlainDate.compare(d, gridEnd) <= 0; d = d.add({ days: 1 })) dates.push(d);

  // Length of the unbroken run of active days each day belongs to: walk forward counting, then spread back.
  const spanLength = new Map<string, number>();
  let span: string[] = [];
  const close = () => {
    for (const date of span) spanLength.set(date, span.length);
    span = [];
  };
  for (const d of dates) {
    if (byDate.has(d.toString())) span.push(d.toString());
    else close();
  }
  close();

  return dates.map((d) => {
    const date = d.toString();
    const day = byDate.get(date);
    const length = spanLength.get(date) ?? 0;
    return {
      date,
      runCount: day?.count ?? 0,
      distanceKm: (day?.hundredths ?? 0) / 100,
      highlight: length >= STRONG_RUN_DAYS ? 'strong' : length >= MILD_RUN_DAYS ? 'mild' : 'none',
      isToday: date === today,
      isFuture: Temporal.PlainDate.compare(d, end) > 0,
      inWindow: inWindow(d),
    };
  });
}
