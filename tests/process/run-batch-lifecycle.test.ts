import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle, type TestUser } from '../support/users.ts';

/*
 * The goal lifecycle and the XP awards take a batch's recorded runs together: kept, their neighbours found, their
 * runners' goal indexes and time zones read, their goals' progress recorded and appended, a few statements for the
 * whole batch (goal-lifecycle-process.ts, record-progress.ts `recordProgressTogether`, xp-awards.ts). That must
 * store what run after run stores. Two twin worlds of the same runners, goals and runs: in one the reactors take
 * each run as it comes (a batch of one), in the other every run in one batch; their goal streams, XP ledgers and goal
 * rows must be alike. The runs overlap (counted once), complete a goal, and one is deleted in the same batch.
 */

const NOW = '2026-11-18T12:00:00Z'; // a Wednesday

type Twin = { ny: TestUser; tokyo: TestUser; paris: TestUser; goals: string[]; runs: string[] };
const ROLES = ['ny', 'tokyo', 'paris'] as const;

describe.each(databaseTargets())('a batch of runs for the goal lifecycle and XP on %s', (target) => {
  let rt: TestRuntime;
  const twins: Twin[] = [];

  const post = async (user: TestUser, path: string, body: unknown) => {
    const r = await rt.request('POST', path, { token: user.token, body });
    if (r.status >= 300) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };

  /** A twin world; `each` runs after every write (the reactors take it as a batch of one), or not at all. */
  async function world(name: string, each: () => Promise<void>): Promise<Twin> {
    const twin: Twin = {
      ny: await createTestUser(rt, `${name}-ny`, 'America/New_York'),
      tokyo: await createTestUser(rt, `${name}-tokyo`, 'Asia/Tokyo'),
      paris: await createTestUser(rt, `${name}-paris`, 'Europe/Paris'),
      goals: [],
      runs: [],
    };
    for (const [user, km] of [
      [twin.ny, 8],
      [twin.tokyo, 20],
      [twin.paris, 5],
    ] as const) {
      twin.goals.push((await post(user, '/goals', { type: 'distance', target_value: km })).data.id);
    }
    await each();
    const run = async (user: TestUser, startedAt: string, km: number) => {
      twin.runs.push((await post(user, '/runs', runBody(startedAt, km))).data.id);
      await each();
    };
    await run(twin.ny, '2026-11-17T11:00:00Z', 5);
    await run(twin.ny, '2026-11-17T11:10:00Z', 3); // overlaps the run before: counted once
    await run(twin.tokyo, '2026-11-16T23:00:00Z', 6);
    await run(twin.tokyo, '2026-11-18T01:00:00Z', 10);
    await run(twin.paris, '2026-11-18T06:00:00Z', 5); // completes the goal
    await run(twin.ny, '2026-11-18T10:00:00Z', 5); // completes the goal, with the first run
    await run(twin.paris, '2026-11-18T08:00:00Z', 2);
    const deleted = await rt.request('DELETE', `/runs/${twin.runs.at(-1)}`, { token: twin.paris.token });
    if (deleted.status >= 300) throw new Error(`DELETE /runs: ${deleted.status}`);
    await each();
    return twin;
  }

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: NOW });
    // The reactors follow the log live and are settled after every write: each run comes to them alone.
    twins.push(await world('alone', () => settle(rt)));
    // Stopped while the twin writes, then started: they find every run of it in one batch.
    await rt.processes.stop();
    twins.push(await world('together', async () => {}));
    // The read models catch up first. On PostgreSQL the log shows a reader only the events below the oldest open
    // writing transaction (visible-horizon.ts), and the projectors' batch over the twin's last writes is one: started
    // beside it, the reactors once found the runs but not the deletion after them, and took them in two batches.
    const head = await rt.store.headPosition({ committed: true });
    if (head) await rt.projections.waitFor(head, 30_000);
    rt.processes.start();
    await settle(rt);
  }, 120_000);
  afterAll(() => rt?.close());

  /** A stream as comparable across twins: types, data and actor, with the twin's own ids named by role. */
  async function events(twin: Twin, streamId: (twin: Twin) => string) {
    const roles: [string, string][] = [];
    for (const role of ROLES) roles.push([twin[role].id, role]);
    for (const [i, id] of twin.goals.entries()) roles.push([id, `goal-${i}`]);
    for (const [i, id] of twin.runs.entries()) roles.push([id, `run-${i}`]);
    const history = await rt.store.readStream(streamId(twin));
    return history.map((e) => {
      let text = JSON.stringify({ type: e.type, data: e.data, actor: e.metadata.actorId });
      for (const [id, role] of roles) text = text.split(id).join(role);
      return JSON.parse(text) as unknown;
    });
  }

  it('records the same progress and completions in every goal stream', async () => {
    const [alone, together] = twins as [Twin, Twin];
    for (let i = 0; i < alone.goals.length; i++) {
      const goal = (twin: Twin) => `goal-${twin.goals[i]}`;
      expect(await events(together, goal)).toEqual(await events(alone, goal));
    }
    // New York's and Paris's goals were completed by their runs, Tokyo's was not (16 of 20 km).
    const types = async (i: number) =>
      (await events(alone, (t) => `goal-${t.goals[i]}`)).map((e) => (e as { type: string }).type);
    expect(await types(0)).toContain('GoalCompleted');
    expect(await types(2)).toContain('GoalCompleted');
    expect(await types(1)).not.toContain('GoalCompleted');
  });

  it('pays the same XP for every run into every ledger, at each runner’s own zone', async () => {
    const [alone, together] = twins as [Twin, Twin];
    // A week's settlement and a badge's XP follow events other reactors append after the runs: where they fall in
    // the ledger (and a badge's id) depends on the batches. So the runs' awards are compared in order, the rest as a
    // set.
    type Entry = { type: string; data: { sourceType?: string; sourceId?: string } };
    const ledger = async (twin: Twin, role: (typeof ROLES)[number]) =>
      (await events(twin, (t) => `xp-${t[role].id}`)) as Entry[];
    const ofRuns = (list: Entry[]) => list.filter((e) => e.type.startsWith('RunXp'));
    const asSet = (list: Entry[]) =>
      list
        .map((e) => JSON.stringify(e.data.sourceType === 'badge' ? { ...e, data: { ...e.data, sourceId: '' } } : e))
        .sort();
    for (const role of ROLES) {
      const [expected, actual] = [await ledger(alone, role), await ledger(together, role)];
      expect(ofRuns(expected).length).toBeGreaterThan(0);
      expect(ofRuns(actual)).toEqual(ofRuns(expected));
      expect(asSet(actual)).toEqual(asSet(expected));
    }
  });

  it('shows the same progress on each runner’s current goal', async () => {
    const [alone, together] = twins as [Twin, Twin];
    for (const role of ROLES) {
      const shown = async (twin: Twin) => {
        const r = await rt.request('GET', '/goals/current', { token: twin[role].token });
        const { progress, percentage, status } = r.body.data;
        return { progress, percentage, status };
      };
      expect(await shown(together)).toEqual(await shown(alone));
    }
  });
});
