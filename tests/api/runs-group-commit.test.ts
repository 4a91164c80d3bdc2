import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOwnRunsWithNeighbours, ownRunKey } from '../../projections/runs/run-queries.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { userRequests } from '../support/user-requests.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/*
 * POST /runs saves the runs posted side by side in one transaction (group commit: app-server/commands/group-commit.ts,
 * issue 23). Whatever else is in its group, a runner gets what they would get alone: their own run and their own goal
 * in the answer, their own refusal, one run per recording, a keyed retry answered with what it saved.
 */
describe.each(databaseTargets())('POST /runs saved in groups on %s', (target) => {
  let rt: TestRuntime;
  const runners: TestUser[] = [];
  const { post, runsOf } = userRequests(() => rt);

  /** The commit position of the transaction that saved each run. */
  const commitsOf = async (runIds: readonly string[]) =>
    Promise.all(runIds.map(async (id) => (await rt.store.readStream(`run-${id}`))[0]!.position.commit));

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
    for (let i = 0; i < 6; i++) {
      const runner = await createTestUser(rt, `group-runner-${i}`);
      expect((await post(runner, '/goals', { type: 'distance', target_value: 100 })).status).toBe(201);
      runners.push(runner);
    }
  }, 120_000);
  afterAll(() => rt?.close());

  it('answers each runner with their own run and their own goal, the runs saved together', async () => {
    const km = [2, 3, 4, 5, 6, 7];
    const answers = await Promise.all(
      runners.map((runner, i) => post(runner, '/runs', runBody('2026-11-17T07:00:00Z', km[i]!), randomUUID())),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(201));
    for (const [i, answer] of answers.entries()) {
      expect(answer.body.data).toMatchObject({ user_id: runners[i]!.id, distance_km: km[i] });
      expect(answer.body.goal).toMatchObject({ progress: km[i], target_value: 100 });
      expect((await runsOf(runners[i]!)).map((r) => r.id)).toEqual([answer.body.data.id]);
    }
    // Some of them went in one transaction (the first is sent at once; those posted meanwhile go together).
    const commits = await commitsOf(answers.map((a) => a.body.data.id));
    expect(new Set(commits).size).toBeLessThan(commits.length);
  });

  it("a run refused in a group is that run's refusal alone; the others are saved", async () => {
    const [old, ...others] = runners;
    const answers = await Promise.all([
      post(old!, '/runs', runBody('2026-11-09T07:00:00Z', 3)),
      ...others.map((runner) => post(runner, '/runs', runBody('2026-11-16T07:00:00Z', 1))),
    ]);
    expect(answers[0]!.status).toBe(400);
    expect(answers[0]!.body.error).toBe('A run can only be logged within 7 days of its start');
    expect(answers.slice(1).map((a) => a.status)).toEqual(Array(5).fill(201));
    expect(answers.slice(1).map((a) => a.body.goal.progress)).toEqual([4, 5, 6, 7, 8]);
    expect(await runsOf(old!)).toHaveLength(1);
  });

  it('one recording posted twice among others is one run, both copies answered with it', async () => {
    const [twice, ...others] = runners;
    const body = runBody('2026-11-15T07:00:00Z', 2);
    const answers = await Promise.all([
      post(twice!, '/runs', body),
      ...others.map((runner) => post(runner, '/runs', runBody('2026-11-15T09:00:00Z', 1))),
      post(twice!, '/runs', body),
    ]);
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(201));
    expect(answers[6]!.body.data.id).toBe(answers[0]!.body.data.id);
    expect(await runsOf(twice!)).toHaveLength(2);
  });

  it('keyed runs saved together are answered again, unchanged, on a retry with their keys', async () => {
    const keys = runners.map(() => randomUUID());
    const bodies = runners.map((_, i) => runBody('2026-11-14T07:00:00Z', 1 + i / 10));
    const first = await Promise.all(runners.map((runner, i) => post(runner, '/runs', bodies[i], keys[i])));
    const retries = await Promise.all(runners.map((runner, i) => post(runner, '/runs', bodies[i], keys[i])));
    expect(retries.map((a) => a.status)).toEqual(Array(6).fill(201));
    expect(retries.map((a) => a.body.data)).toEqual(first.map((a) => a.body.data));
    for (const runner of runners) expect((await runsOf(runner)).length).toBeLessThanOrEqual(4);
  });

  it("answers a run only to its owner, even when another runner's answer asks for it in the same statement", async () => {
    const [ana, ben] = runners;
    const [benRun] = await runsOf(ben!);
    const found = await findOwnRunsWithNeighbours(rt.database.db, [
      { userId: ana!.id, runId: benRun!.id },
      { userId: ben!.id, runId: benRun!.id },
    ]);
    expect([...found.keys()]).toEqual([ownRunKey(ben!.id, benRun!.id)]);
    expect(found.get(ownRunKey(ben!.id, benRun!.id))!.run.user_id).toBe(ben!.id);
  });
});
