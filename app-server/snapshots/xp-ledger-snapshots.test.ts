import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { xpLedgerDecider } from '../../domain/xp/decide.ts';
import type { XpLedgerCommand } from '../../domain/xp/commands.ts';
import { xpCommand } from '../../domain/xp/testing/xp-arbitraries.ts';
import { streams } from '../../domain/shared/streams.ts';
import { processMetadata } from '../commands/event-metadata.ts';
import {
  loadXpLedger,
  loadXpLedgers,
  payIntoLedger,
  payIntoLedgers,
  xpLedgerSnapshots,
} from '../process/awards/xp-ledger-load.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../../tests/support/test-runtime.ts';

/*
 * Snapshots are a cache: paying a user's ledger with snapshots taken every few events must store the very events
 * paying it without any snapshot stores, every load must give the whole stream's fold, and after deleting every
 * snapshot the loads, and the next decisions, must be the same.
 */

const everyThree = { ...xpLedgerSnapshots, every: 3 };
const never = { ...xpLedgerSnapshots, every: Number.POSITIVE_INFINITY };
const NUM_RUNS = Number(process.env.FC_NUM_RUNS_DB ?? 12);

describe.each(databaseTargets())('XP ledger snapshots on %s', (target) => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { workers: false });
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  const pay = (userId: string, commands: readonly XpLedgerCommand[], codec: typeof everyThree, from = 0) =>
    rt.database.db.transaction().execute(async (tx) => {
      for (const [i, command] of commands.entries()) {
        const origin = `test-${userId}-${from + i}`;
        await payIntoLedger(
          rt.store,
          tx,
          { ...command, userId },
          processMetadata('xp-test', new Date(0), origin),
          codec,
        );
      }
    });
  // Each ledger's events name their user: compared without it.
  const stored = async (userId: string) =>
    (await rt.store.readStream(streams.xpLedger(userId))).map((e) => [
      e.streamRevision,
      e.type,
      { ...(e.data as object), userId: null },
    ]);
  const load = (userId: string) =>
    rt.database.db.transaction().execute((tx) => loadXpLedger(rt.store, tx, streams.xpLedger(userId), everyThree));
  const fold = async (userId: string) =>
    (await rt.store.readStream(streams.xpLedger(userId))).reduce(
      (s, e) => xpLedgerDecider.evolve(s, e as never),
      xpLedgerDecider.initialState,
    );

  it('stores, loads and decides the same with snapshots, without them, and after deleting them all', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(xpCommand, { minLength: 1, maxLength: 30 }),
        fc.array(xpCommand, { maxLength: 6 }),
        async (commands, later) => {
          n++;
          const [cached, plain] = [`snap-${target}-${n}-a`, `snap-${target}-${n}-b`];
          await pay(cached, commands, everyThree);
          await pay(plain, commands, never);
          expect(await stored(cached)).toEqual(await stored(plain));
          const withSnapshots = await load(cached);
          expect(withSnapshots.state).toEqual(await fold(cached));
          const { rows } = await sql<{ n: number }>`
            DELETE FROM stream_snapshots WHERE stream_id = ${streams.xpLedger(cached)} RETURNING 1 AS n`.execute(
            rt.database.db,
          );
          const withoutSnapshots = await load(cached);
          expect(withoutSnapshots.state).toEqual(withSnapshots.state);
          expect(withoutSnapshots.expectedVersion).toEqual(withSnapshots.expectedVersion);
          if ((await stored(cached)).length >= 3) expect(rows.length).toBe(1);
          // Deciding on from there: the same events as the ledger that never had a snapshot.
          await pay(cached, later, everyThree, commands.length);
          await pay(plain, later, never, commands.length);
          expect(await stored(cached)).toEqual(await stored(plain));
          expect((await load(cached)).state).toEqual(await fold(cached));
          expect((await load(cached)).state.totalXp).toBe((await fold(plain)).totalXp);
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 300_000);

  // What the XP process does with a batch: many users' commands, interleaved in log order, paid at once.
  const payBatch = (
    batch: readonly { user: string; command: XpLedgerCommand; origin: string }[],
    at: 'once' | 'each',
  ) =>
    rt.database.db
      .transaction()
      .execute(async (tx) => {
        const payments = batch.map(({ user, command, origin }) => ({
          command: { ...command, userId: user },
          metadata: processMetadata('xp-test', new Date(0), origin),
        }));
        if (at === 'once') await payIntoLedgers(rt.store, tx, payments, everyThree);
        else for (const p of payments) await payIntoLedger(rt.store, tx, p.command, p.metadata, everyThree);
        return 'paid';
      })
      .catch((error: unknown) => (error as Error).name);

  it('pays a batch of many ledgers at once as paying each command in turn does', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 2 }), xpCommand), { maxLength: 12 }), {
          minLength: 1,
          maxLength: 5,
        }),
        async (batches) => {
          n++;
          const users = (world: string) => [0, 1, 2].map((u) => `batch-${target}-${n}-${world}-${u}`);
          const [once, each] = [users('once'), users('each')];
          for (const [b, batch] of batches.entries()) {
            const script = (names: string[]) =>
              batch.map(([u, command], i) => ({ user: names[u]!, command, origin: `test-${u}-${b}-${i}` }));
            expect(await payBatch(script(once), 'once')).toBe(await payBatch(script(each), 'each'));
          }
          for (const u of [0, 1, 2]) {
            expect(await stored(once[u]!)).toEqual(await stored(each[u]!));
            // Metadata too: each event carries its own command's correlation, as paying one by one.
            const meta = async (user: string) =>
              (await rt.store.readStream(streams.xpLedger(user))).map((e) => ({ ...e.metadata, eventId: null }));
            expect(await meta(once[u]!)).toEqual(await meta(each[u]!));
          }
          const loads = await rt.database.db.transaction().execute((tx) =>
            loadXpLedgers(
              rt.store,
              tx,
              once.map((u) => streams.xpLedger(u)),
              everyThree,
            ),
          );
          for (const u of once) {
            const one = await load(u);
            expect(loads.get(streams.xpLedger(u))).toEqual(one);
            expect(one.state).toEqual(await fold(u));
          }
        },
      ),
      { numRuns: NUM_RUNS },
    );
  }, 300_000);
});
