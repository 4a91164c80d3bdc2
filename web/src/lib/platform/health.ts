import type { HealthSource } from '../../../../domain/run/events.ts';

/** The phone's health store a run is imported from, as the API names the run's source (§1: Apple Health, Health Connect). */
export type { HealthSource };

/** What one import did, with the sentence to show the runner. */
export interface HealthImportResult {
  readonly source: HealthSource;
  /** Runs the API saved in this import. */
  readonly imported: number;
  /** False when the import could not run (no permission, no health store, no network); `message` says why. */
  readonly ok: boolean;
  readonly message: string;
}

/**
 * Running workouts from the phone's health store (the native shell only: Health Connect on Android, Apple Health on
 * iOS). Each import asks for permission when needed, reads the running workouts since the last import and posts
 * each as a run; the run policy judges them as uploads after the fact.
 */
export interface HealthStore {
  readonly source: HealthSource;
  importWorkouts(): Promise<HealthImportResult>;
}
