import type { Verification } from '../../domain/run/verification.ts';

/** A row of the runs read model (kysely table type). */
export type RunsTable = {
  id: string;
  user_id: string;
  source: string;
  import_id: string | null;
  started_at: Date;
  /** The claimed end: start plus the elapsed time. */
  ended_at: Date;
  distance_km: number;
  duration_sec: number;
  notes: string | null;
  verdict: string;
  verification: Verification;
  recorded_at: Date;
};
