import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { stakeDecider } from '../../../domain/stake/decide.ts';
import type { StakeCommand } from '../../../domain/stake/commands.ts';
import { HOLD_EXPIRY_MARGIN } from '../../../domain/stake/policy.ts';
import {
  type EventStore,
  StreamOrderConflictError,
  WrongExpectedVersionError,
} from '../../../domain/shared/event-store.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import type { CommandMetadata } from '../../commands/event-metadata.ts';
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
 * Stakes are worked in chunks: one query reads a chunk's streams, the pure decider decides each command in memory
 * (a stake's commands in order), and one statement appends them all, each stream expecting the revision it was read
 * at; a chunk that lost a race is decided again from fresh reads, together once more, then stake by stake.
 */
export async function tickStakeClock({ db, store, now }: ClockDeps): Promise<void> {
  const at = now.toISOString();
  const lapseFrom = new Date(now.getTime() + HOLD_EXPIRY_MARGIN.hours * 3_600_000).toISOString();
  const { rows } = await sql<ClockRow>`
    SELECT stake_id, 'SettleMissed' AS command FROM stake_process_stakes WHERE awaiting_settlement
    UNION ALL
    SELECT stake_id, 'RetryCharge' FROM stake_process_stakes
      WHERE status = 'charge_failed' AND next_attempt_at <= ${at}::timestamptz
    UNION ALL
    SELECT stake_id, 'RecordHoldExpired' FROM stake_process_stakes
      WHERE status = 'active' AND capture_before <= ${lapseFrom}::timestamptz
    ORDER BY stake_id`.execute(db);
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  const metadata = () => processMetadata('stakes', now, `stakes-tick-${now.toISOString()}`);
  for (let from = 0; from < rows.length; from += CLOCK_CHUNK) {
    const chunk = rows.slice(from, from + CLOCK_CHUNK);
    for (let attempt = 1; ; attempt++) {
      try {
        await decideTogether(store, chunk, instant, metadata);
        break;
      } catch (error) {
        // Another writer reached one of these stakes first (a webhook, the action worker): nothing of the chunk was
        // written. It is decided again from fresh reads, together once more (what deciding each stake on its own from
        // a fresh read decides), then each stake on its own.
        if (!(error instanceof WrongExpectedVersionError || error instanceof StreamOrderConflictError)) throw error;
        if (attempt < CHUNK_ATTEMPTS) continue;
        await oneByOne(store, chunk, instant, metadata);
        break;
      }
    }
  }
}

/** How many stakes one statement reads and one statement writes. */
const CLOCK_CHUNK = 500;

/** How many times a chunk is read and decided together before its stakes go one by one. */
const CHUNK_ATTEMPTS = 2;

type ClockRow = { stake_id: string; command: StakeCommand['type'] };

/** The chunk's streams read in one query, each command decided in memory, everything appended in one statement. */
async function decideTogether(
  store: EventStore<Transaction<object>>,
  rows: readonly ClockRow[],
  instant: Temporal.Instant,
  metadata: () => CommandMetadata,
): Promise<void> {
  const batch = new DecisionBatch(store, stakeDecider, undefined, { rememberStates: true });
  await batch.load(rows.map((row) => streams.stake(row.stake_id)));
  const shared = metadata();
  // Too early, not due, or the stake moved on meanwhile: a refusal changes nothing, and a later tick looks again.
  for (const { stake_id, command } of rows) {
    await batch.decide(streams.stake(stake_id), { type: command, now: instant } as StakeCommand, shared);
  }
  await batch.flush();
}

/** The fallback: each command read, decided and appended on its own (several stakes at once, one stake in order). */
async function oneByOne(
  store: EventStore<Transaction<object>>,
  rows: readonly ClockRow[],
  instant: Temporal.Instant,
  metadata: () => CommandMetadata,
): Promise<void> {
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
          metadata(),
        );
      } catch (error) {
        if (!(error instanceof DomainRefusal)) throw error;
      }
    },
  );
}
