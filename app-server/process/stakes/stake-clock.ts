import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { HOLD_EXPIRY_MARGIN } from '../../../domain/stake/policy.ts';
import type { EventStore } from '../../../domain/shared/event-store.ts';
import { DomainRefusal } from '../../commands/domain-refusal.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { inParallelByKey, TICK_CONCURRENCY } from '../in-parallel.ts';
import { streams } from '../../../domain/shared/streams.ts';

type ClockDeps = { readonly db: Kysely<object>; readonly store: EventStore<Transaction<object>>; readonly now: Date };

/**
 * The time half of the stake process: settles misses that had to wait for their week to end in their zone, lets a
 * hold lapse (recorded) once it is within the margin of its deadline, and issues the next charge attempt when due.
 * Every command is re-checked by the stake decider against the stream, so a repeated tick changes nothing twice.
 * Stakes are worked on several at once; the commands of one stake stay in order, one at a time.
 */
export async function tickStakeClock({ db, store, now }: ClockDeps): Promise<void> {
  const at = now.toISOString();
  const lapseFrom = new Date(now.getTime() + HOLD_EXPIRY_MARGIN.hours * 3_600_000).toISOString();
  const { rows } = await sql<{ stake_id: string; command: StakeCommand['type'] }>`
    SELECT stake_id, 'SettleMissed' AS command FROM stake_process_stakes WHERE awaiting_settlement
    UNION ALL
    SELECT stake_id, 'RetryCharge' FROM stake_process_stakes
      WHERE status = 'charge_failed' AND next_attempt_at <= ${at}::timestamptz
    UNION ALL
    SELECT stake_id, 'RecordHoldExpired' FROM stake_process_stakes
      WHERE status = 'active' AND capture_before <= ${lapseFrom}::timestamptz
    ORDER BY stake_id`.execute(db);
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  await inParallelByKey(
    rows,
    (row) => row.stake_id,
    TICK_CONCURRENCY,
    async ({ stake_id, command }) => {
      try {
        await executeCommand(
          store,
          stakeDecider,
          streams.stake(stake_id),
          { type: command, now: instant } as StakeCommand,
          processMetadata('stakes', now, `stakes-tick-${now.toISOString()}`),
        );
      } catch (error) {
        // Too early, not due, or the stake moved on meanwhile: a later tick looks again.
        if (!(error instanceof DomainRefusal)) throw error;
      }
    },
  );
}
