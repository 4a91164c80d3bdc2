import type { Temporal } from 'temporal-polyfill';
import { type DomainError, domainError } from '../shared/decider.ts';
import { isStorableText } from '../shared/storable-text.ts';
import type { GpsPosition } from './geo.ts';

/**
 * What one run can really be, and what the runs read model can hold. A value past these is not a run but a mistake
 * or an attack, and some would be events no projection can ever apply (a duration past the `integer` column's
 * 2,147,483,647, a year-0 start PostgreSQL's timestamptz refuses, notes with NUL). The HTTP schemas refuse them with
 * a message naming the field; the run decider refuses them again, because imports reach it without a route.
 * (Plausibility — pace, density, overlap — is the verification policy's business, not this file's.)
 */

/** The longest run recorded: 48 hours, beyond any single-stage race on foot (the longest take about 40 hours). */
export const MAX_RUN_SECONDS = 48 * 3600;
/** The longest distance a run may claim or import: 500 km (the longest single-stage races are about 250 km). */
export const MAX_RUN_KM = 500;
/** The most GPS fixes one run carries: a fix a second for 27 hours (the 2 MB body limit is usually reached first). */
export const MAX_RUN_POSITIONS = 100_000;
/** The coarsest accuracy a fix may report, in metres: 100 km, coarser than any position fix (IP geolocation). */
export const MAX_FIX_ACCURACY_M = 100_000;
/** The earliest time a run or a fix may carry (2000-01-01T00:00Z, in epoch ms): no phone tracked runs before. */
export const EARLIEST_RUN_MS = 946_684_800_000;
/** The latest time a fix may carry (2100-01-01T00:00Z, in epoch ms); starts are also checked against the clock. */
export const LATEST_FIX_MS = 4_102_444_800_000;
/** The longest id a connected service's activity may have, and its sport type's name. */
export const MAX_IMPORT_ID_LENGTH = 100;
export const MAX_SPORT_TYPE_LENGTH = 50;

/** The refusals of this file. */
export const runLimitErrors = {
  tooLong: () => domainError('invalid', 'run_too_long', 'A run can last at most 48 hours'),
  tooFar: () => domainError('invalid', 'run_too_far', `A run can cover at most ${MAX_RUN_KM} km`),
  tooManyPositions: () =>
    domainError('invalid', 'too_many_positions', `A run can carry at most ${MAX_RUN_POSITIONS} GPS positions`),
  tooEarly: () => domainError('invalid', 'run_too_early', 'A run cannot start before the year 2000'),
  unstorableText: () =>
    domainError('invalid', 'unstorable_text', 'Text must not contain NUL characters or unpaired UTF-16 surrogates'),
  importNames: () =>
    domainError('invalid', 'invalid_import_names', 'The imported activity has an invalid id or sport type'),
} satisfies Record<string, () => DomainError>;

/** A fix inside the ranges a position can have: the globe, 2000–2100, an accuracy a receiver reports. */
export function isPositionInRange(p: GpsPosition): boolean {
  const accuracy = p.accuracy;
  return (
    Number.isFinite(p.latitude) &&
    Math.abs(p.latitude) <= 90 &&
    Number.isFinite(p.longitude) &&
    Math.abs(p.longitude) <= 180 &&
    Number.isFinite(p.timestamp) &&
    p.timestamp >= EARLIEST_RUN_MS &&
    p.timestamp < LATEST_FIX_MS &&
    (accuracy === undefined ||
      accuracy === null ||
      (Number.isFinite(accuracy) && accuracy >= 0 && accuracy <= MAX_FIX_ACCURACY_M))
  );
}

/** The fields of a run command these limits look at (GPS and imports alike). */
export interface RunFigures {
  readonly startedAt: Temporal.Instant;
  readonly durationSec: number;
  readonly positions: readonly GpsPosition[];
  readonly notes: string | null;
  /** Imports only: the service's figures and names. */
  readonly distanceKm?: number;
  readonly importId?: string;
  readonly sportType?: string;
}

/**
 * Why a run's figures are beyond what a run can be, or null. Positions out of range are the caller's
 * `invalidPosition` (the message the tracker's users already know), so they are not judged here.
 */
export function runLimitProblem(run: RunFigures): DomainError | null {
  if (!(run.durationSec <= MAX_RUN_SECONDS)) return runLimitErrors.tooLong();
  if (run.distanceKm !== undefined && !(run.distanceKm <= MAX_RUN_KM)) return runLimitErrors.tooFar();
  if (run.positions.length > MAX_RUN_POSITIONS) return runLimitErrors.tooManyPositions();
  if (run.startedAt.epochMilliseconds < EARLIEST_RUN_MS) return runLimitErrors.tooEarly();
  const texts = [run.notes, run.importId, run.sportType].filter((t): t is string => typeof t === 'string');
  if (!texts.every(isStorableText)) return runLimitErrors.unstorableText();
  if ((run.importId?.length ?? 0) > MAX_IMPORT_ID_LENGTH || (run.sportType?.length ?? 0) > MAX_SPORT_TYPE_LENGTH) {
    return runLimitErrors.importNames();
  }
  return null;
}
