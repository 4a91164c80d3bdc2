import autocannon from 'autocannon';

/** One measured workload: throughput, latency, and every answer that was not a success. */
export interface LoadFigures {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Non-2xx answers, socket errors and timeouts: a row with failures measures the wrong thing. */
  readonly failures: number;
  readonly completed: number;
}

/** What each request of a workload asks (a user's token and their path; a JSON body for a write workload). */
export type NextRequest = () => { path: string; token?: string; body?: string };

/**
 * Loads `baseUrl` with `connections` keep-alive connections for `seconds` (after a 1 s warm-up that is not counted),
 * each request built by `next` (so requests spread over many users). autocannon's own counts and percentiles.
 */
export async function measureRequests(
  baseUrl: string,
  options: { connections: number; seconds: number; next: NextRequest; method?: 'GET' | 'POST' },
): Promise<LoadFigures> {
  const run = (seconds: number) =>
    autocannon({
      url: baseUrl,
      connections: options.connections,
      duration: seconds,
      requests: [
        {
          method: options.method ?? 'GET',
          setupRequest: (request) => {
            const { path, token, body } = options.next();
            const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
            if (body === undefined) return { ...request, path, headers };
            return { ...request, path, headers: { ...headers, 'content-type': 'application/json' }, body };
          },
        },
      ],
    });
  await run(1);
  const result = await run(options.seconds);
  return {
    perSecond: result.requests.total / (result.duration || options.seconds),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    completed: result.requests.total,
  };
}
