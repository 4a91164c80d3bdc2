import type { Temporal } from 'temporal-polyfill';
import type { HealthSource, ImportSource, RecordedWith } from './events.ts';
import type { GpsPosition } from './geo.ts';
import type { ImportFlags } from './verification.ts';

/** Save a run tracked with the app's GPS (POST /runs with source gps). */
export interface LogGpsRun {
  readonly type: 'LogGpsRun';
  readonly runId: string;
  readonly userId: string;
  readonly startedAt: Temporal.Instant;
  /** Elapsed seconds as the tracker counted them. */
  readonly durationSec: number;
  /** The fixes; a live session's carry when the server received each (`receivedAt`). */
  readonly positions: readonly GpsPosition[];
  readonly notes: string | null;
  /**
   * Whether a goal of the user whose week holds `startedAt` may already be settled (the handler looks it up):
   * a run uploaded after the fact cannot be added to a settled week. False for a live session, whose start the
   * server saw.
   */
  readonly weekSettled: boolean;
  /**
   * The upload is evidence for a staked week that can still take it (an appeal, a refund for late evidence): neither
   * the age limit nor the settled week refuses it. It counts as any upload after the fact; its stake weighs it.
   */
  readonly evidenceForStake?: boolean;
  /** An upload after the fact (POST /runs) may be at most MAX_LOGGED_RUN_AGE old; a live session is not. */
  readonly live: boolean;
  /** The file the track came from (POST /runs/import): judged as any upload after the fact, its origin kept. */
  readonly recordedWith?: RecordedWith | null;
  /**
   * The health store workout whose route this track is (POST /runs with source health_connect / apple_health and a
   * route): judged as any upload after the fact, recorded with the store as its source and the workout's id.
   */
  readonly healthWorkout?: { readonly source: HealthSource; readonly importId: string } | null;
  readonly now: Temporal.Instant;
}

/** Record an activity synced from a connected service. */
export interface ImportRun {
  readonly type: 'ImportRun';
  readonly runId: string;
  readonly userId: string;
  readonly source: ImportSource;
  readonly importId: string;
  readonly startedAt: Temporal.Instant;
  readonly distanceKm: number;
  /** Moving time in seconds. */
  readonly durationSec: number;
  /** Elapsed time in seconds (start to finish, pauses included). */
  readonly elapsedSec: number;
  /** The activity's GPS stream when fetched; empty when the service has none. */
  readonly positions: readonly GpsPosition[];
  readonly flags: ImportFlags;
  readonly notes: string | null;
  readonly now: Temporal.Instant;
}

/** The owner edits the notes. */
export interface EditNotes {
  readonly type: 'EditNotes';
  readonly userId: string;
  readonly notes: string | null;
  readonly now: Temporal.Instant;
}

/** The owner deletes the run. */
export interface DeleteRun {
  readonly type: 'DeleteRun';
  readonly userId: string;
  readonly now: Temporal.Instant;
}

/** Every command of the run aggregate. */
export type RunCommand = LogGpsRun | ImportRun | EditNotes | DeleteRun;
