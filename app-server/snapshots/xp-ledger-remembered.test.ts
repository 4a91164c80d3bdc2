import fc from 'fast-check';
import { sql } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streams } from '../../domain/shared/streams.ts';
import { xpLedgerDecider } from '../../domain/xp/decide.ts';
import type { XpLedgerCommand } from '../../domain/xp/commands.ts';
import { xpCommand } from '../../domain/xp/testing/xp-arbitraries.ts';
import { processMetadata } from '../commands/event-metadata.ts';
import { loadXpLedgers, payIntoLedger, payIntoLedgers, xpLedgerSnapshots } from '../process/awards/xp-ledger-load.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../../tests/support/test-runtime.ts';

/*
 * The worker remembers the XP ledgers it loads and pays (snapshot-load.ts, `codec.remembered`), and reads each again
 * only from the newest event it remembers. Whatever happened since — its own payment rolled back, a payment made
 * without remembering, snapshots deleted — a load must give the whole stream's fold at the stream's revision, and
 * snapshots must still come every `codec.every` events.
 */

const NUM_RUNS = Number(process.env.FC_NUM_RUNS_DB ?? 12);
const USERS = 2;

type Step =
  | { kind: 'pay'; payments: [number, XpLedgerCommand][]; rollBack: boolean }
  | { kind: 'payUnremembered'; user: number; command: XpLedgerCommand }
  | { kind: 'dropSnapshots' }
  | { kind: 'check' };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      payments: fc.array(fc.tuple(fc.integer({ min: 0, max: USERS - 1 }), xpCommand), { minLength: 1, maxLength: 6 }),
      rollBack: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('payUnremembered' as const),
      user: fc.integer({ min: 0, max: USERS - 1 }),
      command: xpCommand,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropSnapshots' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('check' as const) }) },
);

describe.each(databaseTargets())('remembered XP ledgers on %s', (target) => {
  let rt: TestRuntime;
  /** Rows each readStreams call returned, newest last. */
  const rowsRead: number[] = [];
  let watched: TestRuntime['store'];
  beforeAll(async () => {
    rt = await startTestRuntime(target, { workers: false });
    watched = {
      ...rt.store,
      readStreams: async (ids, options) => {
        const read = await rt.store.readStreams(ids, options);
        rowsRead.push([...read.values()].reduce((n, events) => n + events.length, 0));
        return read;
      },
    };
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  const fold = async (streamId: string) => {
    const events = await rt.store.readStream(streamId);
    return {
      state: events.reduce((s, e) => xpLedgerDecider.evolve(s, e as never), xpLedgerDecider.initialState),
      revision: events.length - 1,
    };
  };
  const loadAll = (codec: typeof xpLedgerSnapshots, ids: string[]) =>
    rt.database.db.transaction().execute((tx) => loadXpLedgers(watched, tx, ids, codec));
  let origins = 0;
  const metadata = () => processMetadata('xp-remembered-test', new Date(0), `origin-${target}-${origins++}`);

  /** A load of every ledger gives the whole stream's fold (a load also remembers, so checks are steps of their own). */
  const check = async (codec: typeof xpLedgerSnapshots, ids: string[]) => {
    const loaded = await loadAll(codec, ids);
    for (const id of ids) {
      const whole = await fold(id);
      expect(loaded.get(id)!.state).toEqual(whole.state);
      expect(loaded.get(id)!.expectedVersion).toEqual(whole.revision >= 0 ? whole.revision : 'no_stream');
    }
  };

  it('loads what the whole stream folds to, after rollbacks, writes it never saw and deleted snapshots', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        n++;
        // A codec of its own per case: its own remembered states, so cases never share one.
        const codec = { ...xpLedgerSnapshots, every: 3 };
        const userOf = (u: number) => `remembered-${target}-${n}-${u}`;
        const ids = Array.from({ length: USERS }, (_, u) => streams.xpLedger(userOf(u)));
        for (const s of steps) {
          if (s.kind === 'pay') {
            await rt.database.db
              .transaction()
              .execute(async (tx) => {
                await payIntoLedgers(
                  watched,
                  tx,
                  s.payments.map(([u, command]) => ({
                    command: { ...command, userId: userOf(u) },
                    metadata: metadata(),
                  })),
                  codec,
                );
                if (s.rollBack) throw new Error('rolled back');
              })
              .catch(() => undefined);
          } else if (s.kind === 'payUnremembered') {
            await rt.database.db
              .transaction()
              .execute((tx) =>
                payIntoLedger(watched, tx, { ...s.command, userId: userOf(s.user) }, metadata(), { ...codec }),
              )
              .catch(() => undefined);
          } else if (s.kind === 'dropSnapshots') {
            await sql`DELETE FROM stream_snapshots WHERE stream_id = ANY(${ids}::text[])`.execute(rt.database.db);
          } else {
            await check(codec, ids);
          }
        }
        await check(codec, ids);
      }),
      { numRuns: NUM_RUNS },
    );
  }, 300_000);

  it('reads a ledger it paid last from there on, and still snapshots it every `every` events', async () => {
    const codec = { ...xpLedgerSnapshots, every: 3 };
    const userId = `remembered-${target}-reads`;
    const id = streams.xpLedger(userId);
    for (let i = 0; i < 7; i++) {
      await rt.database.db.transaction().execute((tx) =>
        payIntoLedgers(
          watched,
          tx,
          [
            {
              command: {
                type: 'AwardRunXp',
                userId,
                runId: `run-${i}`,
                distanceKm: 5,
                startedAt: `2026-11-1${i}T07:00:00Z`,
                localStart: `2026-11-1${i}T07:00:00`,
                xpMultiplier: 1,
                now: Temporal.Instant.from('2026-11-18T12:00:00Z'),
              },
              metadata: metadata(),
            },
          ],
          codec,
        ),
      );
    }
    rowsRead.length = 0;
    const loaded = await loadAll(codec, [id]);
    // One event: the one remembered, read to check it is still there.
    expect(rowsRead).toEqual([1]);
    expect(loaded.get(id)!.state).toEqual((await fold(id)).state);
    const { rows } = await sql<{ revision: string }>`
      SELECT revision FROM stream_snapshots WHERE stream_id = ${id}`.execute(rt.database.db);
    const { revision } = await fold(id);
    expect(revision).toBeGreaterThanOrEqual(6);
    expect(Number(rows[0]!.revision)).toBeGreaterThan(revision - codec.every);
  }, 60_000);
});
