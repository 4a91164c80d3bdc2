import { Temporal } from 'temporal-polyfill';

/**
 * How long ago `then` was, as the feed shows it (§9): 'just now' under a minute (also for a clock slightly ahead),
 * 'Nm ago' under an hour, 'Nh ago' under a day, 'Nd ago' under 7 days, then the date in `timeZone`
 * ('Mar 3, 2025').
 */
export function relativeTime(then: Temporal.Instant, now: Temporal.Instant, timeZone: string): string {
  const seconds = Math.floor((now.epochMilliseconds - then.epochMilliseconds) / 1000);
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return then.toZonedDateTimeISO(timeZone).toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/** Parses an ISO-8601 instant (events store instants as strings). */
export function instant(iso: string): Temporal.Instant {
  return Temporal.Instant.from(iso);
}
