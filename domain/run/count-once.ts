import { type CountingContext, countedDistanceKm } from './counting.ts';
import type { Verification } from './verification.ts';
import { verificationLimits as limits } from './verification-policy.ts';

/** A run as the rules across runs see it. */
export interface CountableRun {
  readonly runId: string;
  readonly startedAtMs: number;
  /** The claimed end: start plus the elapsed time. */
  readonly endedAtMs: number;
  readonly recordedAtMs: number;
  readonly verification: Verification;
}

/** The cross-run facts of a recorded run (RunRecorded data): its claimed time is its start plus its elapsed time. */
export function countableRun(
  run: {
    readonly runId: string;
    readonly startedAt: string;
    readonly durationSec: number;
    readonly elapsedSec?: number | null;
    readonly verification: Verification;
  },
  recordedAt: string,
): CountableRun {
  const startedAtMs = Date.parse(run.startedAt);
  return {
    runId: run.runId,
    startedAtMs,
    endedAtMs: startedAtMs + (run.elapsedSec ?? run.durationSec) * 1000,
    recordedAtMs: Date.parse(recordedAt),
    verification: run.verification,
  };
}

/** The run that counts in this run's place, and which rule says so. */
export interface OutrankedBy {
  readonly runId: string;
  readonly rule: 'overlap' | 'same_track';
}

/** A run's contribution once the runs around it are known. */
export interface CountedOnce {
  readonly km: number;
  readonly outrankedBy: OutrankedBy | null;
}

const recordedFirst = (a: CountableRun, b: CountableRun) =>
  a.recordedAtMs < b.recordedAtMs || (a.recordedAtMs === b.recordedAtMs && a.runId < b.runId);

const overlapMs = (a: CountableRun, b: CountableRun) =>
  Math.min(a.endedAtMs, b.endedAtMs) - Math.max(a.startedAtMs, b.startedAtMs);

/**
 * One person runs one run at a time, and a recording happens once (issue 11, policy version 2):
 * - the same track (equal track key) sent again counts only the first time it was recorded;
 * - of runs whose claimed times overlap by more than a minute, a run counts only if none of them beats it: more
 *   distance in this context, or as much and recorded first.
 * Both rules are local (a run's fate depends only on the runs it overlaps or repeats), so a caller may pass a run
 * with only its neighbours, and deleting the counted run lets the next best one count. Runs judged by policy
 * version 1 neither lose nor win here: they count as they did when recorded, so no settled week is re-judged.
 */
export function countOnce(runs: readonly CountableRun[], context: CountingContext): Map<string, CountedOnce> {
  const judged = runs.filter((r) => r.verification.policyVersion === 2);
  const keyOf = (r: CountableRun) => (r.verification.policyVersion === 2 ? r.verification.trackKey : null);
  const repeated = new Map<string, OutrankedBy>();
  for (const run of judged) {
    const key = keyOf(run);
    const first = key === null ? undefined : judged.find((o) => o !== run && keyOf(o) === key && recordedFirst(o, run));
    if (first) repeated.set(run.runId, { runId: first.runId, rule: 'same_track' });
  }
  // A repeated recording weighs nothing, so it cannot push a real run aside either.
  const km = new Map(
    runs.map((r) => [r.runId, repeated.has(r.runId) ? 0 : countedDistanceKm(r.verification, context)]),
  );
  const overlapped = (run: CountableRun): OutrankedBy | null => {
    const own = km.get(run.runId)!;
    for (const other of judged) {
      if (other.runId === run.runId || overlapMs(run, other) <= limits.overlapToleranceSec * 1000) continue;
      const theirs = km.get(other.runId)!;
      if (theirs > 0 && (theirs > own || (theirs === own && recordedFirst(other, run)))) {
        return { runId: other.runId, rule: 'overlap' };
      }
    }
    return null;
  };
  return new Map(
    runs.map((run): [string, CountedOnce] => {
      const by = repeated.get(run.runId) ?? (run.verification.policyVersion === 2 ? overlapped(run) : null);
      return [run.runId, { km: by ? 0 : km.get(run.runId)!, outrankedBy: by }];
    }),
  );
}
