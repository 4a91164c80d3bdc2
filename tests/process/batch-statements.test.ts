import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type RootOperationNode,
  sql,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody } from '../support/users.ts';

/*
 * A reactor takes the events of a batch together: the statements it makes for a batch must not grow with the number
 * of runners in it. Two did, each found on a busy Sunday's write row (docs/PERFORMANCE.md):
 * - the goal lifecycle weighed every run of a week's last day as stake evidence and read its goal alone;
 * - the badge awards read and appended each badge earned on its own.
 * Every process manager the runtime hosts is held to it here, so a new one (or a new path in one) that makes a
 * statement per runner fails this test. The batch is a Sunday's: runners with a goal this week, a run each.
 */

const SUNDAY = '2026-11-22T15:00:00Z';

/** Counts the statements sent through the Kysely it is plugged into. */
class Statements implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.count++;
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs) {
    return result;
  }
}

class RolledBack extends Error {}

describe.each(databaseTargets())('a reactor’s statements do not grow with its batch (%s)', (target) => {
  let runtime: TestRuntime;
  const worlds = new Map<number, RecordedEvent[]>();

  /** `runners` new runners, each with a goal this week and a run this Sunday morning: every event they brought. */
  async function world(name: string, runners: number): Promise<RecordedEvent[]> {
    const after = await runtime.store.headPosition({ committed: true });
    for (let i = 0; i < runners; i++) {
      const user = await createTestUser(runtime, `${name}-${i}`, 'Europe/London');
      const as = (method: string, path: string, body: unknown) =>
        runtime.request(method, path, { token: user.token, body });
      expect((await as('POST', '/goals', { type: 'distance', target_value: 20 })).status).toBe(201);
      expect((await as('POST', '/runs', runBody(`2026-11-22T0${i}:00:00Z`, 5))).status).toBe(201);
    }
    return runtime.store.readAll({ after });
  }

  beforeAll(async () => {
    runtime = await startTestRuntime(target, { now: SUNDAY });
    // No reactor takes these worlds but the batches below, which find every badge still to earn.
    await runtime.processes.stop();
    worlds.set(1, await world('one', 1));
    worlds.set(5, await world('five', 5));
  }, 180_000);
  afterAll(() => runtime?.close());

  /**
   * The statements each process manager makes for `events`, as the worker takes them: every manager given its
   * events, then the events they appended, until none is left (XP paid, then the badges it earns), all in one
   * transaction rolled back at the end.
   */
  async function statementsOf(events: readonly RecordedEvent[]): Promise<Map<string, number>> {
    const counter = new Statements();
    const made = new Map<string, number>();
    // Everything committed is here already: what a round appends comes after it, in the transaction.
    const { rows } = await sql<{
      last: string;
    }>`SELECT coalesce(max(global_position), 0) AS last FROM es_events`.execute(runtime.database.db);
    const committed = Number(rows[0]!.last);
    await runtime.database.db
      .withPlugin(counter)
      .transaction()
      .execute(async (tx) => {
        const seen = new Set<string>();
        let batch = events;
        for (let round = 0; round < 4 && batch.length > 0; round++) {
          for (const manager of runtime.processes.managers) {
            const taken = batch.filter((e) => manager.eventTypes?.includes(e.type));
            if (!manager.handle || taken.length === 0) continue;
            const before = counter.count;
            await manager.handle(taken, { tx, store: runtime.store, now: runtime.clock.now() });
            made.set(manager.name, (made.get(manager.name) ?? 0) + counter.count - before);
          }
          // The log's reads leave out what an open transaction wrote, this one's too: its streams are read instead.
          const streams = await sql<{ id: string }>`
            SELECT DISTINCT stream_id AS id FROM es_events WHERE global_position > ${committed}`.execute(tx);
          const read = await runtime.store.readStreams(
            streams.rows.map((r) => r.id),
            { transaction: tx },
          );
          const appended = [...read.values()].flat().filter((e) => e.globalPosition > committed);
          appended.sort((a, b) => a.globalPosition - b.globalPosition);
          batch = appended.filter((e) => !seen.has(e.metadata.eventId));
          for (const e of batch) seen.add(e.metadata.eventId);
        }
        throw new RolledBack();
      })
      .catch((error) => {
        if (!(error instanceof RolledBack)) throw error;
      });
    return made;
  }

  it('every process manager: as many statements for five runners as for one', async () => {
    const one = await statementsOf(worlds.get(1)!);
    const five = await statementsOf(worlds.get(5)!);
    // The batches reached the reactors that follow runs, badges included (a test that fed them nothing, or that
    // earned nothing, would prove nothing).
    for (const name of ['goal-lifecycle', 'xp-awards', 'badge-awards']) expect(one.get(name)).toBeGreaterThan(0);
    expect(Object.fromEntries(five)).toEqual(Object.fromEntries(one));
  });
});
