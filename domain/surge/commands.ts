/** Schedule a surge (an operator's action); times are ISO-8601 instants. */
export interface ScheduleSurge {
  readonly type: 'ScheduleSurge';
  readonly surgeId: string;
  readonly xpMultiplier: number;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly now: string;
}

/** Call off a surge that has not started. */
export interface CancelSurge {
  readonly type: 'CancelSurge';
  readonly surgeId: string;
  readonly now: string;
}

/** Every command the surge schedule accepts. */
export type SurgeCommand = ScheduleSurge | CancelSurge;
