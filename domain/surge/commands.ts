import type { Temporal } from 'temporal-polyfill';

/** Schedule a surge (an operator's action); `startsAt` and `endsAt` are ISO-8601 instants, stored as given. */
export interface ScheduleSurge {
  readonly type: 'ScheduleSurge';
  readonly surgeId: string;
  readonly xpMultiplier: number;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly now: Temporal.Instant;
}

/** Call off a surge that has not started. */
export interface CancelSurge {
  readonly type: 'CancelSurge';
  readonly surgeId: string;
  readonly now: Temporal.Instant;
}

/** Every command the surge schedule accepts. */
export type SurgeCommand = ScheduleSurge | CancelSurge;
