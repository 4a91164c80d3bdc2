/** Backoff before retrying a failed Strava job: 1, 2, 4… minutes, at most 6 hours. */
export function retryDelayMs(attempt: number): number {
  return Math.min(6 * 60 * 60_000, 60_000 * 2 ** Math.max(0, attempt - 1));
}
