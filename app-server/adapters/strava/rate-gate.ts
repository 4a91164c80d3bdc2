/** Whether a call only reads (counted against the read limits too) or changes something (OAuth). */
export type CallKind = 'read' | 'write';

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

/** The next :00/:15/:30/:45 UTC, when Strava's short window resets. */
export function nextQuarterHour(now: Date): Date {
  return new Date((Math.floor(now.getTime() / QUARTER_MS) + 1) * QUARTER_MS);
}

/** The next midnight UTC, when the daily window resets. */
export function nextUtcMidnight(now: Date): Date {
  return new Date((Math.floor(now.getTime() / DAY_MS) + 1) * DAY_MS);
}

/** "200,2000" → [200, 2000]; null when absent or unreadable. */
function pair(value: string | null): [number, number] | null {
  if (value === null) return null;
  const [a, b] = value.split(',').map((part) => Number(part.trim()));
  return a !== undefined && b !== undefined && Number.isFinite(a) && Number.isFinite(b) ? [a, b] : null;
}

interface Window {
  readonly limit: string;
  readonly usage: string;
}

const OVERALL: Window = { limit: 'x-ratelimit-limit', usage: 'x-ratelimit-usage' };
const READS: Window = { limit: 'x-readratelimit-limit', usage: 'x-readratelimit-usage' };

/**
 * Strava's limits (FACTS): 200 requests / 15 min and 2,000 / day overall, 100 and 1,000 for reads, reset at the
 * quarter hours and at midnight UTC; usage comes back in `X-RateLimit-*` and `X-ReadRateLimit-*` headers.
 * The gate closes when a response shows a window used up, or on a 429, until that window resets: while it is closed
 * no request leaves (the caller gets StravaRateLimited at once), so a backlog of imports cannot hammer Strava.
 * Per process: on several workers each learns the usage from its own next response (Strava counts per application).
 */
export class RateGate {
  readonly #now: () => Date;
  #closedUntil: Record<CallKind, number> = { read: 0, write: 0 };

  constructor(now: () => Date) {
    this.#now = now;
  }

  /** When the gate reopens for this kind of call, or null when it is open. */
  blockedUntil(kind: CallKind): Date | null {
    const until = this.#closedUntil[kind];
    return until > this.#now().getTime() ? new Date(until) : null;
  }

  /** Reads the usage headers of any response (429 or not). Returns when the gate reopens if it just closed. */
  observe(headers: Headers, status: number, kind: CallKind): Date | null {
    const now = this.#now();
    const overall = this.#exhausted(headers, OVERALL, now);
    const reads = this.#exhausted(headers, READS, now);
    let overallUntil = overall;
    let readUntil = reads;
    if (status === 429 && overall === null && reads === null) {
      // A 429 without readable headers: wait for the short window, the least Strava asks.
      if (kind === 'read') readUntil = nextQuarterHour(now);
      else overallUntil = nextQuarterHour(now);
    }
    if (overallUntil) this.#close(['read', 'write'], overallUntil);
    if (readUntil) this.#close(['read'], readUntil);
    return this.blockedUntil(kind);
  }

  #exhausted(headers: Headers, window: Window, now: Date): Date | null {
    const limit = pair(headers.get(window.limit));
    const usage = pair(headers.get(window.usage));
    if (!limit || !usage) return null;
    if (usage[1] >= limit[1]) return nextUtcMidnight(now);
    if (usage[0] >= limit[0]) return nextQuarterHour(now);
    return null;
  }

  #close(kinds: readonly CallKind[], until: Date): void {
    for (const kind of kinds) this.#closedUntil[kind] = Math.max(this.#closedUntil[kind], until.getTime());
  }
}
