import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { surgeDecider } from '../../domain/surge/decide.ts';
import { allProjectors } from '../../projections/registry.ts';
import { liveTableNames } from '../../projections/engine/projector.ts';
import { createGoal, deleteRun, endGoal, logRun, settle, testUser } from '../api/gamification-fixtures.ts';
import { cycle, saveCard, stakedGoal } from '../money/money-fixtures.ts';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/** Every row of a table, as JSON text ordered by all its columns, so two copies compare exactly. */
async function rowsOf(rt: TestRuntime, table: string): Promise<string[]> {
  const { rows } = await sql<{ row: string }>`
    SELECT row_to_json(t)::text AS row FROM ${sql.table(table)} AS t ORDER BY row_to_json(t)::text`.execute(
    rt.database.db,
  );
  return rows.map((r) => r.row);
}

describe.each(databaseTargets())('rebuilding every read model on %s', (target: DatabaseTarget) => {
  let rt: TestRuntime;

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T08:00:00Z' });
    const users = [await testUser(rt, 'ada'), await testUser(rt, 'bob'), await testUser(rt, 'cy')];
    let n = 0;
    await executeCommand(
      rt.store,
      surgeDecider,
      'surge-schedule',
      {
        type: 'ScheduleSurge',
        surgeId: 'weekend',
        xpMultiplier: 1.5,
        startsAt: '2026-11-21T06:00:00Z',
        endsAt: '2026-11-21T18:00:00Z',
        now: Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime()),
      },
      {
        actorId: null,
        correlationId: 'seed',
        now: rt.clock.now(),
        newEventId: () => `00000000-0000-4000-8000-00000000000${++n}`,
      },
    );
    // The social side: a group, a member who joins and one who leaves, reactions on a run card, preferences.
    const [ada, bob, cy] = users as [(typeof users)[number], (typeof users)[number], (typeof users)[number]];
    const group = await rt.request('POST', '/groups', { token: await ada.token(), body: { name: 'Dawn Patrol' } });
    const code = (await rt.request('GET', `/groups/${group.body.data.id}`, { token: await ada.token() })).body.data
      .invite_code;
    for (const member of [bob, cy]) {
      const joined = await rt.request('POST', '/groups/join', {
        token: await member.token(),
        body: { invite_code: code },
      });
      expect(joined.status).toBe(200);
    }
    await rt.request('POST', `/groups/${group.body.data.id}/leave`, { token: await cy.token() });
    await rt.request('PUT', '/me/preferences', { token: await bob.token(), body: { distance_unit: 'mi' } });
    // Three weeks of a realistic history: runs (some in a surge, one deleted), goals completed and missed.
    const weeks = ['2026-11-16', '2026-11-23', '2026-11-30'];
    for (const [w, weekStart] of weeks.entries()) {
      rt.clock.set(`${weekStart}T07:00:00Z`);
      for (const [u, user] of users.entries()) {
        await createGoal(rt, user.id, `g-${u}-${w}`, weekStart);
        for (let d = 0; d < 6; d += 1 + u) {
          const day = new Date(Date.parse(`${weekStart}T05:${10 + u}:00Z`) + d * 86_400_000).toISOString();
          await logRun(rt, user.id, `r-${u}-${w}-${d}`, 3 + u * 4.3 + d, day);
        }
      }
      rt.clock.set(new Date(Date.parse(`${weekStart}T00:00:00Z`) + 6.5 * 86_400_000));
      await deleteRun(rt, users[0]!.id, `r-0-${w}-1`);
      await endGoal(rt, `g-0-${w}`, 'completed');
      await endGoal(rt, `g-1-${w}`, w === 1 ? 'missed' : 'completed');
      await endGoal(rt, `g-2-${w}`, 'missed');
      await settle(rt);
      const feed = await rt.request('GET', `/feed?group_id=${group.body.data.id}&filter=runs`, {
        token: await bob.token(),
      });
      const card = feed.body.data?.[0];
      if (card) {
        await rt.request('POST', `/feed/${card.id}/reactions`, { token: await bob.token(), body: { emoji: 'fire' } });
        await rt.request('POST', `/feed/${card.id}/reactions`, { token: await ada.token(), body: { emoji: 'clap' } });
      }
    }
    // Money: a staked goal with a charity, missed, settled on the following Monday (stake rows).
    rt.clock.set('2026-12-07T09:00:00Z');
    const payer = { id: ada.id, email: '', token: await ada.token() };
    const charities = await rt.request('GET', '/charities');
    const pm = await saveCard(rt, payer);
    await stakedGoal(rt, payer, { pm, charity: charities.body.charities[0].id, target: 3 });
    await cycle(rt);
    rt.clock.set('2026-12-14T06:00:00Z');
    await cycle(rt);
    await settle(rt);
    // A week still open: its goal's progress is worked out from its runs, not frozen by a close.
    rt.clock.set('2026-12-15T07:00:00Z');
    await createGoal(rt, users[1]!.id, 'g-open', '2026-12-14');
    await logRun(rt, users[1]!.id, 'r-open-1', 6.5, '2026-12-15T05:30:00Z');
    // Pauses with notice: one kept, one canceled (the pauses read model must rebuild to the same rows).
    const pause = async (user: typeof bob, week_start: string, reason: string) =>
      rt.request('POST', '/goals/pauses', { token: await user.token(), body: { week_start, reason } });
    expect((await pause(bob, '2026-12-28', 'travel')).status).toBe(201);
    expect((await pause(cy, '2027-01-04', 'injury')).status).toBe(201);
    expect((await pause(cy, '2027-01-11', 'other')).status).toBe(201);
    const canceled = await rt.request('DELETE', '/goals/pauses/2027-01-04', { token: await cy.token() });
    expect(canceled.status).toBe(200);
    await logRun(rt, users[1]!.id, 'r-open-2', 4.25, '2026-12-15T06:30:00Z');
    await settle(rt);
  }, 300_000);
  afterAll(async () => rt?.close());

  it('yields tables identical to the live ones, for every registered projector', async () => {
    const badges = await rowsOf(rt, 'badges');
    expect(badges.length).toBeGreaterThan(5);
    const empty: string[] = [];
    for (const projector of allProjectors) {
      for (const table of Object.values(liveTableNames(projector)))
        if ((await rowsOf(rt, table)).length === 0) empty.push(table);
    }
    // A rebuild of an empty table proves nothing: the history above must reach every read model.
    expect(empty, `empty read models: ${empty.join(', ')}`).toEqual([]);
    const open = await sql<{ progress: number }>`SELECT progress FROM goals WHERE id = 'g-open' AND NOT frozen`.execute(
      rt.database.db,
    );
    expect(open.rows[0]?.progress).toBeGreaterThan(10);
    for (const projector of allProjectors) {
      const tables = Object.values(liveTableNames(projector));
      const before = new Map<string, string[]>();
      for (const table of tables) before.set(table, await rowsOf(rt, table));
      await rt.projections.rebuild(projector.name);
      for (const table of tables) {
        expect({ table, rows: await rowsOf(rt, table) }).toEqual({ table, rows: before.get(table) });
      }
    }
  });

  it('yields the same tables when every read model is rebuilt together over one read of the log', async () => {
    const before = new Map<string, string[]>();
    for (const projector of allProjectors)
      for (const table of Object.values(liveTableNames(projector))) before.set(table, await rowsOf(rt, table));
    const results = await rt.projections.rebuildAll(allProjectors.map((p) => p.name));
    expect(results.map((r) => r.name)).toEqual(allProjectors.map((p) => p.name));
    for (const [table, rows] of before) expect({ table, rows: await rowsOf(rt, table) }).toEqual({ table, rows });
  });
});
