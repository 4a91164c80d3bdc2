import { track } from '../../domain/run/track.test-helpers.ts';
import { authClient, lastCode } from '../api/auth-helpers.ts';
import type { Runtime } from '../../app-server/runtime.ts';
import type { TestRuntime } from './test-runtime.ts';

/** A signed-in product user for API tests. */
export interface TestUser {
  readonly id: string;
  readonly email: string;
  readonly token: string;
}

let counter = 0;

/**
 * Creates a user through the public auth API (sign-up with a profile zone, the mailed code, verify) and returns
 * their access token, as a real client would get it.
 */
export async function createTestUser(
  runtime: TestRuntime,
  name: string,
  timezone = 'America/New_York',
): Promise<TestUser> {
  counter += 1;
  const call = authClient(runtime);
  const email = `${name}-${counter}-${process.pid}@example.com`;
  const signup = await call('POST', '/auth/v1/signup', {
    body: { email, password: 'correct horse battery', data: { display_name: name, timezone } },
  });
  if (signup.status !== 200) throw new Error(`signup failed: ${signup.text}`);
  const verify = await call('POST', '/auth/v1/verify', {
    body: { type: 'signup', email, token: await lastCode(runtime, email) },
  });
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.text}`);
  return { id: verify.body.user.id, email, token: verify.body.access_token };
}

/** Signs the user in again (password grant) for a fresh access token, e.g. after a simulated clock moved days on. */
export async function freshToken(runtime: TestRuntime, user: TestUser): Promise<TestUser> {
  const res = await authClient(runtime)('POST', '/auth/v1/token?grant_type=password', {
    body: { email: user.email, password: 'correct horse battery' },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.text}`);
  return { ...user, token: res.body.access_token };
}

/**
 * Lets every process manager and projection catch up with the log (twice: processes react to their own events).
 * `timeoutMs` bounds each wait for the read models (the bench's seeding waits minutes, tests seconds).
 */
export async function settle(
  runtime: Pick<Runtime, 'processes' | 'store' | 'projections'>,
  timeoutMs = 15_000,
): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await runtime.processes.drain();
    const head = await runtime.store.headPosition();
    if (head) await runtime.projections.waitFor(head, timeoutMs);
  }
}

/**
 * A POST /runs body for a plausible (verified) run: `km` at 10 km/h, straight north, a fix every 30 s.
 * `km` should be a multiple of 1/12 (1, 2, 3, 5, 10…) so the track length is exact. Each start time runs on its own
 * meridian (a few hundred metres apart), so two runs are never the same recording (domain/run/track-key.ts).
 * Verified toward a stake only when posted within 2 hours of its end (domain/run/verification.ts rule 4).
 */
export function runBody(startedAt: string, km: number, notes: string | null = null) {
  const steps = Math.round(km * 12);
  const meridian = ((Date.parse(startedAt) / 60_000) % 997) * 1e-4;
  const positions = track(10, steps + 1, 30, 8, Date.parse(startedAt)).map((p) => ({
    ...p,
    longitude: p.longitude + meridian,
  }));
  return {
    started_at: startedAt,
    distance_km: km,
    duration_sec: steps * 30,
    source: 'gps',
    gps_data: { positions },
    notes,
  };
}
