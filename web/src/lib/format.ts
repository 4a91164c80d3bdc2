import { type DistanceUnit, kmToMi, round2 } from '../../../domain/shared/units.ts';

/** Seconds as h:mm:ss or m:ss. */
export function formatDuration(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A pace in seconds per km as m:ss per unit, or '—' when unknown. */
export function formatPace(secPerKm: number | null, unit: DistanceUnit): string {
  if (secPerKm === null || !Number.isFinite(secPerKm) || secPerKm <= 0) return '—';
  const perUnit = unit === 'mi' ? secPerKm / 0.621371 : secPerKm;
  return `${formatDuration(perUnit)} /${unit}`;
}

/** A km value in the user's unit as a number with up to 2 decimals (for progress lines). */
export function distanceValue(km: number, unit: DistanceUnit): number {
  return round2(unit === 'mi' ? kmToMi(km) : km);
}

/** A calendar date ('2026-11-16') as people read it: 'Nov 16'. */
export function shortDate(isoDate: string): string {
  // Noon, so no zone's offset can move the calendar day.
  return new Date(`${isoDate}T12:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
}

/** The week starting on a Monday ('2026-11-16') as a heading: 'Week of Nov 16'. */
export function weekOf(weekStart: string): string {
  return `Week of ${shortDate(weekStart)}`;
}

/** A date and time in the browser's locale: 'Mon, Nov 16 · 7:05 AM'. */
export function formatDateTime(iso: string): { date: string; time: string } {
  const d = new Date(iso);
  return {
    date: d.toLocaleDateString('en-US', { weekday: 'short', month: 'short', day: 'numeric' }),
    time: d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' }),
  };
}

/** A count with its noun in agreement: '1 GPS point', '2 GPS points', '0 GPS points'. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

/**
 * A whole number with en-US thousands separators: 12345 → '12,345', as toLocaleString('en-US') writes it, without
 * Intl: a page's first Intl number format loads locale data, which costs a slow phone a tenth of a second on the
 * dashboard's first paint.
 */
export function formatCount(value: number): string {
  const grouped = String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return value <= -1 ? `-${grouped}` : grouped;
}
