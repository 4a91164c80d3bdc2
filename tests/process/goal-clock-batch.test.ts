import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { closeInChunks } from '../../app-server/process/goal-lifecycle/goal-clock.ts';
import {
  activateOneByOne,
  activateTogether,
  type ClockDeps,
  closeOneByOne,
  closeTogether,
} from '../../app-server/process/goal-lifecycle/goal-clock-steps.ts';
import type { GoalCommand } from '../../domain/goal/commands.ts';
import { goalDecider } from '../../domain/goal/decide.ts';
import { type EventStore, WrongExpectedVersionError } from '../../domain/shared/event-store.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, settle, type TestUser } from '../support/users.ts';

/*
 * The goal clock closes a Monday's weeks in chunks (goal-clock-steps.ts): streams in one query, runs in one more,
 * decisions in memory, one append. It must store exactly what closing goal by goal stores. Two twin worlds of the same
 * runners, goals and runs: one worked together, the other one by one, at the same instants; their goal streams must
 * hold the same events (ids aside), refusals included (a week not over yet, a goal canceled, a week closed twice).
 * The week of 2026-10-26 ends on the Sunday New York leaves daylight time (Nov 1): that week is 169 hours there, so a
 * run on Sunday 23:00 EST (04:00Z Monday) counts, and the week may not close before 05:00Z.
 */

const WEEK_OF = '2026-10-28T12:00:00Z'; // a Wednesday of the week of Monday 2026-10-26
type Twin = {
  ny: TestUser;
  tokyo: TestUser;
  honolulu: TestUser;
  paris: TestUser;
  canceled: TestUser;
  thisWeek: string[];
  nextWeek: string[];
};

describe.each(databaseTargets())('the goal clock in chunks on %s', (target) => {
  let rt: TestRuntime;
  const twins: Twin[] = [];

  const post = (user: TestUser, path: string, body: unknown) =>
    rt.request('POST', path, { token: user.token, body }).then((r) => {
      if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    });
  const goal = async (user: TestUser, target_value: number, start: 'this_week' | 'next_week' = 'this_week') =>
    (await post(user, '/goals', { type: 'distance', target_value, start })).data.id as string;
  const command = (goalId: string, cmd: GoalCommand) =>
    executeCommand(rt.store, goalDecider, `goal-${goalId}`, cmd, {
      actorId: 'test',
      correlationId: 'goal-clock-batch-test',
      now: rt.clock.now(),
      newEventId: () => randomUUID(),
    });
  const instant = () => Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime());
  const deps = (store: EventStore<Transaction<object>> = rt.store): ClockDeps => ({
    db: rt.database.db,
    store,
    now: rt.clock.now(),
  });

  /** A twin world: the same runners, goals and runs each time. */
  async function world(name: string, weeksLater = 0): Promise<Twin> {
    const at = (iso: string) => new Date(Date.parse(iso) + weeksLater * 7 * 86_400_000).toISOString();
    const twin: Twin = {
      ny: await createTestUser(rt, `${name}-ny`, 'America/New_York'),
      tokyo: await createTestUser(rt, `${name}-tokyo`, 'Asia/Tokyo'),
      honolulu: await createTestUser(rt, `${name}-hnl`, 'Pacific/Honolulu'),
      paris: await createTestUser(rt, `${name}-paris`, 'Europe/Paris'),
      canceled: await createTestUser(rt, `${name}-canceled`, 'America/New_York'),
      thisWeek: [],
      nextWeek: [],
    };
    const { ny, tokyo, honolulu, paris, canceled } = twin;
    twin.thisWeek.push(await goal(ny, 10), await goal(tokyo, 10), await goal(honolulu, 5), await goal(paris, 10));
    twin.thisWeek.push(await goal(canceled, 5));
    twin.nextWeek.push(await goal(ny, 5, 'next_week'), await goal(tokyo, 5, 'next_week'));
    twin.nextWeek.push(await goal(honolulu, 5, 'next_week'));
    await post(ny, '/runs', runBody(at('2026-10-27T12:00:00Z'), 5));
    await post(tokyo, '/runs', runBody(at('2026-10-27T01:00:00Z'), 3)); // short of 10: missed
    await post(honolulu, '/runs', runBody(at('2026-10-27T20:00:00Z'), 6)); // completed by its run
    // Completed without a run behind it (as a deleted run would leave it): the clock withdraws it, then it is missed.
    await command(twin.thisWeek[3]!, { type: 'RecordProgress', progress: 10, now: instant() });
    await command(twin.thisWeek[4]!, { type: 'CancelGoal', userId: canceled.id, now: instant() });
    return twin;
  }

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: WEEK_OF });
    twins.push(await world('together'), await world('alone'));
    // The reactors record each twin's progress (a completion is dated when they record it) before the clock moves on.
    await settle(rt);
    // Sunday 23:00 in New York after the clocks went back (04:00Z Monday): still the week of Oct 26 there.
    rt.clock.set('2026-11-02T04:40:00Z');
    for (const twin of twins) {
      twin.ny = await freshToken(rt, twin.ny);
      await post(twin.ny, '/runs', runBody('2026-11-02T04:00:00Z', 5));
    }
    await settle(rt);
  }, 120_000);
  afterAll(() => rt?.close());

  /** A goal stream as comparable across twins: types, data and actor, with the twin's own ids named by role. */
  async function events(twin: Twin, goalId: string) {
    const roles: [string, string][] = [[goalId, 'GOAL']];
    for (const role of ['ny', 'tokyo', 'honolulu', 'paris', 'canceled'] as const) roles.push([twin[role].id, role]);
    const history = await rt.store.readStream(`goal-${goalId}`);
    return history.map((e) => {
      let text = JSON.stringify({ type: e.type, data: e.data, actor: e.metadata.actorId });
      for (const [id, role] of roles) text = text.split(id).join(role);
      return JSON.parse(text) as unknown;
    });
  }

  async function tick(at: string) {
    rt.clock.set(at);
    const [together, alone] = twins as [Twin, Twin];
    await activateTogether(together.nextWeek, deps());
    await activateOneByOne(alone.nextWeek, deps());
    await closeTogether(
      together.thisWeek.map((id) => ({ id })),
      deps(),
    );
    await closeOneByOne(
      alone.thisWeek.map((id) => ({ id })),
      deps(),
    );
    await settle(rt);
  }

  async function expectTwinsAlike() {
    const [together, alone] = twins as [Twin, Twin];
    for (const key of ['thisWeek', 'nextWeek'] as const) {
      for (let i = 0; i < together[key].length; i++) {
        expect(await events(together, together[key][i]!)).toEqual(await events(alone, alone[key][i]!));
      }
    }
  }

  const types = async (goalId: string) => (await rt.store.readStream(`goal-${goalId}`)).map((e) => e.type);

  it('stores what goal by goal stores, refusals included, across the DST week and its zones', async () => {
    // 04:45Z: New York's week (169 h long) has 15 minutes left, and so has the settlement moment; Tokyo's next week
    // began (Sunday 15:00Z), New York's and Honolulu's not yet.
    await tick('2026-11-02T04:45:00Z');
    await expectTwinsAlike();
    const [together] = twins as [Twin, Twin];
    expect(await types(together.thisWeek[0]!)).not.toContain('GoalWeekClosed');
    expect(await types(together.nextWeek[1]!)).toContain('GoalActivated');
    expect(await types(together.nextWeek[0]!)).not.toContain('GoalActivated');

    // 05:00Z: Monday 00:00 in New York. Its week closes completed (the Sunday 23:00 EST run counted), Tokyo's missed,
    // the run-less completion is withdrawn and missed; Honolulu's week still runs (until 10:00Z).
    await tick('2026-11-02T05:00:00Z');
    await expectTwinsAlike();
    expect(await types(together.thisWeek[0]!)).toEqual(expect.arrayContaining(['GoalCompleted', 'GoalWeekClosed']));
    expect(await types(together.thisWeek[1]!)).toContain('GoalMissed');
    expect(await types(together.thisWeek[3]!)).toEqual(
      expect.arrayContaining(['GoalCompletionWithdrawn', 'GoalMissed']),
    );
    expect(await types(together.thisWeek[2]!)).not.toContain('GoalWeekClosed');
    expect(await types(together.thisWeek[4]!)).not.toContain('GoalMissed');

    // 10:30Z: Honolulu's week is over; everything else is already closed and a second close changes nothing.
    await tick('2026-11-02T10:30:00Z');
    await tick('2026-11-02T10:31:00Z');
    await expectTwinsAlike();
    expect(await types(together.thisWeek[2]!)).toContain('GoalWeekClosed');
    for (const id of together.nextWeek) expect(await types(id)).toContain('GoalActivated');
  });

  it('a chunk that lost a race writes nothing of itself, and read afresh then stores what goal by goal stores', async () => {
    // Two more twins, in a week of their own. Tokyo's runner cancels at the last second, after the chunk read it.
    rt.clock.set('2026-11-04T12:00:00Z');
    const [raced, reference] = [await world('raced', 1), await world('reference', 1)];
    // Both worlds' runs handled before the clock moves (else one world's goal may complete at the later instant).
    await settle(rt);
    rt.clock.set('2026-11-09T05:00:00Z');
    await settle(rt);
    const lateCancel = (t: Twin) => command(t.thisWeek[1]!, { type: 'CancelGoal', userId: t.tokyo.id, now: instant() });
    let lost = 0;
    let raceDone = false;
    const racing: EventStore<Transaction<object>> = Object.create(rt.store, {
      readStreams: {
        value: async (...args: Parameters<EventStore<Transaction<object>>['readStreams']>) => {
          const read = await rt.store.readStreams(...args);
          if (!raceDone) {
            raceDone = true;
            await lateCancel(raced);
          }
          return read;
        },
      },
      appendToStreams: {
        value: async (...args: Parameters<EventStore<Transaction<object>>['appendToStreams']>) => {
          try {
            return await rt.store.appendToStreams(...args);
          } catch (error) {
            if (error instanceof WrongExpectedVersionError) lost += 1;
            throw error;
          }
        },
      },
    });
    await closeInChunks(
      raced.thisWeek.map((id) => ({ id })),
      deps(racing),
    );
    await lateCancel(reference);
    await closeOneByOne(
      reference.thisWeek.map((id) => ({ id })),
      deps(),
    );
    expect(lost).toBe(1);
    for (let i = 0; i < raced.thisWeek.length; i++) {
      expect(await events(raced, raced.thisWeek[i]!)).toEqual(await events(reference, reference.thisWeek[i]!));
    }
    // Tokyo's goal stays canceled, not missed with the state the chunk had read; the others closed from fresh reads.
    expect(await types(raced.thisWeek[1]!)).toContain('GoalCanceled');
    expect(await types(raced.thisWeek[1]!)).not.toContain('GoalMissed');
    expect(await types(raced.thisWeek[0]!)).toContain('GoalMissed');
  });
});
