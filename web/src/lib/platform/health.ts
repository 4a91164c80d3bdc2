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
 * each as a run, with its route where the runner grants routes; the run policy judges them as uploads after the fact.
 */
export interface HealthStore {
  readonly source: HealthSource;
  importWorkouts(): Promise<HealthImportResult>;
  /** The workouts' routes the import sends with them where the runner grants them. */
  readonly routes?: HealthRoutes;
}

/** One point of a workout's route as the health store recorded it: `at` an ISO instant, metres where known. */
export interface HealthRouteFix {
  readonly lat: number;
  readonly lng: number;
  readonly at: string;
  readonly accuracy?: number;
  readonly altitude?: number;
}

/** A workout's route: its fixes, none recorded (or not readable), or declined by the runner for this workout. */
export type HealthRouteResult =
  | { readonly kind: 'route'; readonly fixes: readonly HealthRouteFix[] }
  | { readonly kind: 'none' }
  | { readonly kind: 'denied' };

/**
 * Workout routes from the phone's health store (native only): Health Connect's exercise routes, HealthKit's workout
 * routes. `requestAccess` asks once per import (true: routes may be read; Health Connect may still ask per workout);
 * `routeOf` reads the route of a workout by its id in the store.
 */
export interface HealthRoutes {
  requestAccess(): Promise<boolean>;
  routeOf(workoutId: string): Promise<HealthRouteResult>;
}
