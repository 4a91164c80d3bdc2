import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionRowWrites, inRounds, type Write } from '../../app-server/process/stakes/action-row-writes.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';

/*
 * The stake events handler sends a batch's stake_actions writes as a few statements (action-row-writes.ts): a run of
 * inserts as one INSERT, a run of closes as one UPDATE. Whatever the writes and their order (repeated keys, closes
 * of rows queued in the same batch, several closes of one row, closes of nothing), the table must end as writing them
 * one statement at a time leaves it. Two worlds in one table, told apart by a prefix on every id.
 */

const KINDS = ['hold', 'release', 'capture', 'charge', 'refund'] as const;
type Op =
  | { op: 'insert'; stake: number; kind: (typeof KINDS)[number]; n: number }
  | { op: 'close'; stake: number; kind: (typeof KINDS)[number]; n: number; result: string }
  | { op: 'closeKinds'; stake: number; kinds: (typeof KINDS)[number][]; result: string };

const stake = fc.integer({ min: 0, max: 2 });
const kind = fc.constantFrom(...KINDS);
const n = fc.integer({ min: 0, max: 1 });
const result = fc.constantFrom('held', 'expired', 'collected:capture', 'refunded');
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('insert' as const), stake, kind, n }),
  fc.record({ op: fc.constant('close' as const), stake, kind, n, result }),
  fc.record({
    op: fc.constant('closeKinds' as const),
    stake,
    kinds: fc.subarray([...KINDS], { minLength: 1 }),
    result,
  }),
);

describe('stake_actions writes in rounds', () => {
  it("a Monday's batch (captures asked for some stakes, collections recorded for others) is two statements", () => {
    const writes: Write[] = [];
    for (let i = 0; i < 100; i++) {
      const stakeId = `s${i}`;
      if (i % 2 === 0) writes.push({ insert: { key: `${stakeId}-capture`, stakeId, kind: 'capture' } });
      else writes.push({ closeKind: { stakeId, kind: 'capture', result: 'collected:capture' } });
    }
    const rounds = inRounds(writes);
    expect(rounds.map((r) => r.length)).toEqual([50, 50]);
    expect(rounds[0]!.every((w) => 'insert' in w)).toBe(true);
  });

  it("keeps each stake's order: a close after an insert of its stake goes in a later round", () => {
    const insert = (stakeId: string): Write => ({ insert: { key: `${stakeId}-hold`, stakeId, kind: 'hold' } });
    const close = (stakeId: string): Write => ({ close: { stakeId, key: `${stakeId}-hold`, result: 'held' } });
    const rounds = inRounds([close('a'), insert('b'), insert('a'), close('b'), close('a')]);
    expect(rounds).toEqual([[insert('b')], [close('a'), close('b')], [insert('a')], [close('a')]]);
  });
});

describe.each(databaseTargets())('stake_actions writes in runs on %s', (target) => {
  let rt: TestRuntime;
  let world = 0;
  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z', workers: false });
  }, 60_000);
  afterAll(() => rt?.close());

  function apply(writes: ActionRowWrites, prefix: string, o: Op) {
    const stakeId = `${prefix}s${o.stake}`;
    if (o.op === 'insert') writes.insert({ key: `${stakeId}-${o.kind}-${o.n}`, stakeId, kind: o.kind, attempt: o.n });
    else if (o.op === 'close') writes.close(stakeId, `${stakeId}-${o.kind}-${o.n}`, o.result);
    else writes.closeKinds(stakeId, o.kinds, o.result);
  }

  async function table(prefix: string) {
    const { rows } = await sql<Record<string, unknown>>`
      SELECT substr(idempotency_key, ${prefix.length + 1}) AS key, substr(stake_id, ${prefix.length + 1}) AS stake,
             kind, attempt, done_at IS NOT NULL AS done, result
      FROM stake_actions WHERE idempotency_key LIKE ${`${prefix}%`} ORDER BY idempotency_key`.execute(rt.database.db);
    return rows;
  }

  it('leaves the table as writing one statement at a time does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { maxLength: 12 }), { minLength: 1, maxLength: 3 }), async (batches) => {
        world += 1;
        const [alone, together] = [`w${world}a:`, `w${world}b:`];
        const now = new Date('2026-11-16T15:00:00Z');
        for (const batch of batches) {
          await rt.database.db.transaction().execute(async (tx) => {
            for (const o of batch) {
              const one = new ActionRowWrites();
              apply(one, alone, o);
              await one.flush(tx, now);
            }
            const writes = new ActionRowWrites();
            for (const o of batch) apply(writes, together, o);
            await writes.flush(tx, now);
          });
        }
        expect(await table(together)).toEqual(await table(alone));
      }),
      { numRuns: Number(process.env.FC_NUM_RUNS ?? 60) },
    );
  });
});
