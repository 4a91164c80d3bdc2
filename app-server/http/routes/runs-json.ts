import { paceSecPerKm } from '../../../domain/stats/run-totals.ts';
import type { RunListRow } from '../../../projections/runs/run-queries.ts';

/** A run as the API answers it (§3 Run), with its verification verdict and pace. */
export function runJson(run: RunListRow) {
  return {
    id: run.id,
    user_id: run.user_id,
    started_at: new Date(run.started_at).toISOString(),
    distance_km: run.distance_km,
    duration_sec: run.duration_sec,
    pace_sec_per_km: paceSecPerKm(run.distance_km, run.duration_sec),
    source: run.source,
    import_id: run.import_id,
    notes: run.notes,
    verification: {
      verdict: run.verification.verdict,
      reasons: run.verification.reasons,
      trusted_distance_km: run.verification.trustedDistanceKm,
    },
    recorded_at: new Date(run.recorded_at).toISOString(),
  };
}
