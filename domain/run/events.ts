import type { GpsPosition } from './geo.ts';
import type { ImportFlags, Verification } from './verification.ts';

/** Connected services runs are imported from (§1: the running-activity service; the second one is not built). */
export type ImportSource = 'strava';

/** Where a run came from (§3 source). */
export type RunSource = 'gps' | ImportSource;

/** A run as recorded, with the verdict it got when it was recorded. */
export interface RunRecord {
  readonly runId: string;
  readonly userId: string;
  readonly source: RunSource;
  /** The service's activity id for an import, null for GPS. */
  readonly importId: string | null;
  /** ISO instant. */
  readonly startedAt: string;
  /** km, 2 decimals: computed from the track for GPS (the client's figure is not trusted), the service's for imports. */
  readonly distanceKm: number;
  readonly durationSec: number;
  readonly positions: readonly GpsPosition[];
  readonly importFlags: ImportFlags | null;
  readonly notes: string | null;
  /** Stored, not recomputed: a later policy change must not re-judge a settled week. */
  readonly verification: Verification;
}

/** A run was recorded, tracked in the app or imported. */
export interface RunRecorded {
  readonly type: 'RunRecorded';
  readonly data: RunRecord & { readonly recordedAt: string };
}

/** The owner changed the notes. */
export interface RunNotesEdited {
  readonly type: 'RunNotesEdited';
  /** Carries the owner so the notes can be encrypted under the owner's key (personal data; see docs/privacy.md). */
  readonly data: {
    readonly runId: string;
    readonly userId: string;
    readonly notes: string | null;
    readonly editedAt: string;
  };
}

/** The owner deleted the run; goal progress is recomputed without it. */
export interface RunDeleted {
  readonly type: 'RunDeleted';
  readonly data: { readonly runId: string; readonly userId: string; readonly deletedAt: string };
}

/** Every event of the run stream. */
export type RunEvent = RunRecorded | RunNotesEdited | RunDeleted;
