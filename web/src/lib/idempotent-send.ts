/**
 * Creating requests (POST) carry an `Idempotency-Key`: a new one per user action, the same one on every retry of
 * that action, so the server answers a retry with what the first attempt created instead of creating it twice
 * (a run saved as the network dropped is not saved again). The offline queue of a later issue stores the key with
 * each queued run and passes it here on every attempt; the server answers it with the result the first attempt
 * recorded with its events (app-server/commands/idempotency/keyed-request.ts).
 */

/** Statuses worth retrying: the server or a proxy could not answer, and may not have seen the request. */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503, 504]);

/** Waits before the 2nd and 3rd attempts (after the 1st try, 3 attempts in all). */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1500];

/** A fresh key: a UUID (crypto.randomUUID needs a secure context; getRandomValues is everywhere). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Sends with retries: `send` is tried again after a network failure or a 502/503/504, up to RETRY_DELAYS_MS.length
 * more times, honouring `Retry-After` (seconds) when the server gives one. Safe only because the key makes the
 * retries idempotent. An abort is never retried; the last failure or answer is returned as is.
 */
export async function sendWithRetries(
  send: () => Promise<Response>,
  options: { delays?: readonly number[]; wait?: (ms: number) => Promise<void>; signal?: AbortSignal } = {},
): Promise<Response> {
  const delays = options.delays ?? RETRY_DELAYS_MS;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 0; ; attempt++) {
    const last = attempt >= delays.length;
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      if (last || options.signal?.aborted || (error instanceof DOMException && error.name === 'AbortError'))
        throw error;
      await wait(delays[attempt]!);
      continue;
    }
    if (last || !RETRYABLE_STATUSES.has(response.status)) return response;
    const retryAfter = Number(response.headers.get('retry-after'));
    await wait(Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 10_000) : delays[attempt]!);
  }
}
