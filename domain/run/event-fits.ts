import { isPlainRecord } from '../shared/plain-record.ts';
import { RunEvent } from './events.ts';

/*
 * The run decider's shortcut past its event schema (domain/shared/decider.ts, `eventFits`). Checking a RunRecorded
 * against RunEvent made zod walk every fix of the track: 86 µs of a 557-fix run, on every POST /runs. Here the fixes
 * are checked by hand against GpsFix's rules and the rest of the event by the schema itself, so the answer is the
 * schema's: true only when the whole event fits. Anything the hand check is unsure of answers false, and the schema
 * decides as before. event-fits.test.ts holds true to imply RunEvent accepts it.
 */

/** A value GpsFix's `z.number()` takes: a number, neither NaN nor infinite. */
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** A value GpsFix's `z.number().nullable().optional()` takes. */
const isOptionalNumber = (value: unknown) => value === undefined || value === null || isNumber(value);

/** Whether `fix` is certainly a GpsFix (a plain object whose fields hold what the schema allows). */
function isStoredFix(fix: unknown): boolean {
  if (!isPlainRecord(fix)) return false;
  const f = fix;
  return (
    isNumber(f.latitude) &&
    isNumber(f.longitude) &&
    isNumber(f.timestamp) &&
    isOptionalNumber(f.accuracy) &&
    isOptionalNumber(f.receivedAt) &&
    isOptionalNumber(f.elevation)
  );
}

/** True when `event` certainly fits RunEvent: a RunRecorded whose fixes hold and whose other fields the schema takes. */
export function runEventFits(event: RunEvent): boolean {
  if (event.type !== 'RunRecorded') return false;
  const positions: unknown = event.data.positions;
  if (!Array.isArray(positions)) return false;
  // By index, not `every`: a hole in the array is a fix the schema refuses.
  for (let i = 0; i < positions.length; i++) if (!isStoredFix(positions[i])) return false;
  return RunEvent.safeParse({ ...event, data: { ...event.data, positions: [] } }).success;
}
