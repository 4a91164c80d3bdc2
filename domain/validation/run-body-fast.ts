import type { GpsPosition } from '../run/geo.ts';
import { EARLIEST_RUN_MS, LATEST_FIX_MS, MAX_FIX_ACCURACY_M, MAX_RUN_POSITIONS } from '../run/limits.ts';
import { type RunBody, runBodySchema } from './run.ts';

/*
 * POST /runs's body as runBodySchema parses it, for the usual body (a GPS run whose fixes all hold), without zod
 * walking the fixes. zod makes a result object and an issues array for every field of every fix: on a run of 540
 * fixes that was 38% of everything the API allocated (a sampling heap profile) and 200 µs of its one thread, and the
 * scavenges it caused held every request in flight (docs/PERFORMANCE.md).
 *
 * The rule stays runBodySchema's. This is a shortcut that answers only when it can answer exactly what the schema
 * would: the fixes are checked here against the same bounds and copied as the schema copies them (its four fields, in
 * its order, an absent accuracy left absent, anything else dropped), and the rest of the body goes through the schema
 * with no fixes. Anything else — a fix out of bounds or of another shape, a health store workout (its route is judged
 * by the schema's refinement), any refusal — answers null, and the caller parses with the schema, which gives the
 * refusal's exact message. run-body-fast.test.ts holds the two to the same answers (fast-check).
 */

/** The body parsed exactly as runBodySchema would, or null when this shortcut does not apply. */
export function runBodyFast(raw: unknown): RunBody | null {
  if (!isPlainObject(raw)) return null;
  const gps = raw.gps_data;
  if (!isPlainObject(gps)) return null;
  const positions = fixesOf(gps.positions);
  if (positions === null) return null;
  const rest = runBodySchema.safeParse({ ...raw, gps_data: { ...gps, positions: [] } });
  if (!rest.success || rest.data.source !== 'gps') return null;
  return { ...rest.data, gps_data: { ...rest.data.gps_data, positions } };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const within = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

/** The fixes as gpsPositionsSchema outputs them, or null when any would not pass it as is. */
function fixesOf(value: unknown): GpsPosition[] | null {
  if (!Array.isArray(value) || value.length > MAX_RUN_POSITIONS) return null;
  const out: GpsPosition[] = new Array(value.length);
  for (let i = 0; i < value.length; i++) {
    const fix: unknown = value[i];
    if (!isPlainObject(fix)) return null;
    const { latitude, longitude, timestamp, accuracy } = fix;
    if (!within(latitude, -90, 90) || !within(longitude, -180, 180)) return null;
    if (!(typeof timestamp === 'number' && timestamp >= EARLIEST_RUN_MS && timestamp < LATEST_FIX_MS)) return null;
    if (accuracy === undefined && !Object.hasOwn(fix, 'accuracy')) {
      out[i] = { latitude, longitude, timestamp };
    } else if (accuracy === null || within(accuracy, 0, MAX_FIX_ACCURACY_M)) {
      out[i] = { latitude, longitude, timestamp, accuracy };
    } else {
      return null;
    }
  }
  return out;
}
