import type { Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, RecordedEvent } from '../../domain/shared/event-store.ts';
import { goalLifecycleProcess } from '../../app-server/process/goal-lifecycle/goal-lifecycle-process.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, settle } from '../support/users.ts';

/*
 * On a week's last day (in the goal's zone) the goal lifecycle weighs every run that arrives as evidence for its
 * week's stake (stake-evidence.ts). It read each run's goal stream one statement after another: on a Sunday, a batch
 * of runs cost one more round trip per run, most of them for free goals that need nothing more. The goals are now read
 * together: the statements that read goal streams are as many for a batch of five runners as for one.
 */

const SUNDAY = '2026-11-22T15:00:00Z';
type Tx = Transaction<object>;

/** `store`, counting the statements that read goal streams (a read of several streams is one statement). */
function countingGoalReads(store: EventStore<Tx>) {
  const counter = { statements: 0 };
  const isGoal = (id: string) => id.startsWith('goal-');
  const counted = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property === 'readStream')
        return (id: string, options?: object) => {
          if (isGoal(id)) counter.statements++;
          return target.readStream(id, options);
        };
      if (property === 'readStreams')
        return (ids: readonly string[], options?: object) => {
          if (ids.some(isGoal)) counter.statements++;
          return target.readStreams(ids, options);
        };
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: counted, counter };
}

describe.each(databaseTargets())(
  'runs weighed as stake evidence on a Sunday read their goals together (%s)',
  (target) => {
    let runtime: TestRuntime;
    beforeAll(async () => {
      runtime = await startTestRuntime(target, { now: SUNDAY });
    }, 120_000);
    afterAll(() => runtime?.close());

    /** Runners with a goal this week, each with a run this Sunday morning: the RunRecorded events of their runs. */
    async function sundayRuns(name: string, runners: number): Promise<RecordedEvent[]> {
      const ids: string[] = [];
      for (let i = 0; i < runners; i++) {
        const user = await createTestUser(runtime, `${name}-${i}`, 'Europe/London');
        const as = (method: string, path: string, body: unknown) =>
          runtime.request(method, path, { token: user.token, body });
        expect((await as('POST', '/goals', { type: 'distance', target_value: 20 })).status).toBe(201);
        const saved = await as('POST', '/runs', runBody(`2026-11-22T0${i}:00:00Z`, 5));
        expect(saved.status).toBe(201);
        ids.push(saved.body.data.id);
      }
      const log = await runtime.store.readAll();
      return log.filter((e) => e.type === 'RunRecorded' && ids.includes((e.data as { runId: string }).runId));
    }

    /** Goal-stream statements the goal lifecycle makes for one batch of `events` (its writes rolled back). */
    async function goalReadsOf(events: RecordedEvent[]): Promise<number> {
      const { store, counter } = countingGoalReads(runtime.store);
      await runtime.database.db
        .transaction()
        .execute(async (tx) => {
          await goalLifecycleProcess.handle!(events, { tx, store, now: runtime.clock.now() });
          throw new RolledBack();
        })
        .catch((error) => {
          if (!(error instanceof RolledBack)) throw error;
        });
      return counter.statements;
    }

    it('as many statements for five runners as for one', async () => {
      const one = await sundayRuns('alone', 1);
      const five = await sundayRuns('five', 5);
      expect(one).toHaveLength(1);
      expect(five).toHaveLength(5);
      const forOne = await goalReadsOf(one);
      expect(forOne).toBeGreaterThan(0);
      expect(await goalReadsOf(five)).toBe(forOne);
    });
  },
);

class RolledBack extends Error {}
