import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../../domain/shared/event-store.ts';
import { addDays } from '../../domain/gamification/dates.ts';
import type { TestRuntime } from '../support/test-runtime.ts';
import { authClient, signedInUser } from './auth-helpers.ts';

/** Appends domain events as the goals/runs handlers would (their routes are another engineer's). */
export async function append(runtime: TestRuntime, streamId: string, type: string, data: unknown): Promise<void> {
  const event: NewEvent = {
    type,
    data,
    metadata: {
      eventId: randomUUID(),
      occurredAt: runtime.clock.now().toISOString(),
      actorId: null,
      correlationId: randomUUID(),
      causationId: null,
      schemaVersion: 1,
    },
  };
  await runtime.store.appendToStream(streamId, [event]);
}

/** A verified run of `km` starting at `startedAt`. */
export async function logRun(runtime: TestRuntime, userId: string, runId: string, km: number, startedAt: string) {
  await append(runtime, `run-${runId}`, 'RunRecorded', {
    runId,
    userId,
    source: 'gps',
    importId: null,
    startedAt,
    distanceKm: km,
    durationSec: Math.round(km * 330),
    positions: [],
    importFlags: null,
    notes: null,
    verification: { verdict: 'verified', reasons: [], trustedDistanceKm: km, policyVersion: 1 },
    recordedAt: runtime.clock.now().toISOString(),
  });
}

/** Deletes a run. */
export async function deleteRun(runtime: TestRuntime, userId: string, runId: string) {
  await append(runtime, `run-${runId}`, 'RunDeleted', { runId, userId, deletedAt: runtime.clock.now().toISOString() });
}

/** A distance goal for the week starting `weekStart` (a Monday). */
export async function createGoal(runtime: TestRuntime, userId: string, goalId: string, weekStart: string) {
  await append(runtime, `goal-${goalId}`, 'GoalCreated', {
    goalId,
    userId,
    type: 'distance',
    targetValue: 10,
    enteredValue: 10,
    enteredUnit: 'km',
    stakeAmountCents: 0,
    charityId: null,
    paymentMethodId: null,
    timeZone: 'Europe/Paris',
    weekStart,
    weekEnd: addDays(weekStart, 6),
    createdAt: runtime.clock.now().toISOString(),
  });
}

/** Completes (reached 100%) or misses a goal. */
export async function endGoal(runtime: TestRuntime, goalId: string, result: 'completed' | 'missed') {
  const at = runtime.clock.now().toISOString();
  if (result === 'completed') {
    await append(runtime, `goal-${goalId}`, 'GoalCompleted', { goalId, progress: 10, completedAt: at });
  } else {
    await append(runtime, `goal-${goalId}`, 'GoalMissed', { goalId, progress: 2, percentage: 20, closedAt: at });
  }
}

/** Waits until process managers and projections have caught up with everything, including their own events. */
export async function settle(runtime: TestRuntime): Promise<void> {
  for (let round = 0; round < 4; round++) {
    await runtime.processes.drain();
    const head = await runtime.store.headPosition();
    if (head) await runtime.projections.waitFor(head, 15_000);
  }
}

/** A signed-up user whose access token is renewed (password sign-in) when the test clock has moved on. */
export interface TestUser {
  readonly id: string;
  token(): Promise<string>;
}

/** Signs up a user through the public auth API (sign-up, mailed code, verify). */
export async function testUser(runtime: TestRuntime, name: string): Promise<TestUser> {
  const { session, email, password } = await signedInUser(runtime, name);
  let token = session.access_token;
  let issuedAt = runtime.clock.now().getTime();
  return {
    id: session.user.id,
    async token() {
      if (Math.abs(runtime.clock.now().getTime() - issuedAt) > 10 * 60_000) {
        const res = await authClient(runtime)('POST', '/auth/v1/token?grant_type=password', {
          body: { email, password },
        });
        if (res.status !== 200) throw new Error(`sign-in failed: ${res.text}`);
        token = res.body.access_token;
        issuedAt = runtime.clock.now().getTime();
      }
      return token;
    },
  };
}
