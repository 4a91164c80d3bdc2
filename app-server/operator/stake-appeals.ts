import { type Kysely, sql, type Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { StakeAppealed } from '../../domain/stake/appeal-events.ts';
import { stakeDecider } from '../../domain/stake/decide.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { streams } from '../../domain/shared/streams.ts';
import { actorMetadata } from '../commands/event-metadata.ts';
import { executeCommand } from '../commands/execute-command.ts';

/** An appeal waiting for an operator, with what the runner said and what backs it. */
export interface PendingAppeal {
  readonly stakeId: string;
  readonly userId: string;
  readonly weekStart: string;
  readonly amountCents: number;
  readonly status: 'open' | 'referred';
  readonly reason: string;
  readonly note: string;
  readonly runIds: readonly string[];
  readonly vouches: number;
  readonly decideBy: string;
}

/**
 * The undecided appeals, the soonest deadline first (`npm run appeals -- list`): from the stakes read model, with the
 * runner's own words from the stake's StakeAppealed event. A stake that ended meanwhile (its goal completed on the
 * last day) has nothing left to decide and is not listed.
 */
export async function pendingAppeals(
  db: Kysely<object>,
  store: EventStore<Transaction<object>>,
): Promise<PendingAppeal[]> {
  const { rows } = await sql<{ id: string; user_id: string; week_start: string; amount_cents: number; status: string }>`
    SELECT id, user_id, week_start, amount_cents, state->'appeal'->>'status' AS status FROM stakes
    WHERE state->'appeal'->>'status' IN ('open', 'referred') AND stage IN ('pending', 'active', 'unsecured')
    ORDER BY state->'appeal'->>'decideBy', id`.execute(db);
  const appeals: PendingAppeal[] = [];
  for (const row of rows) {
    const history = await store.readStream(streams.stake(row.id));
    const appealed = history.findLast((e) => e.type === 'StakeAppealed') as unknown as StakeAppealed | undefined;
    if (!appealed) continue;
    appeals.push({
      stakeId: row.id,
      userId: row.user_id,
      weekStart: row.week_start,
      amountCents: row.amount_cents,
      status: row.status as 'open' | 'referred',
      reason: appealed.data.reason,
      note: appealed.data.note,
      runIds: appealed.data.runIds,
      vouches: history.filter((e) => e.type === 'StakeVouched').length,
      decideBy: appealed.data.decideBy,
    });
  }
  return appeals;
}

/** One line of `npm run appeals -- list`. */
export function appealLine(a: PendingAppeal): string {
  const runs = a.runIds.length > 0 ? ` runs ${a.runIds.join(',')}` : '';
  const note = a.note ? ` "${a.note}"` : '';
  return `${a.stakeId} ${a.status} week ${a.weekStart} ${a.amountCents}c ${a.reason}${runs} vouches ${a.vouches} decide by ${a.decideBy}${note}`;
}

/**
 * An operator's decision (`npm run appeals -- accept|refuse <stake-id> [--note …]`), recorded on the stake with the
 * operator as actor. A stake without an undecided appeal is refused with the decider's sentence.
 */
export async function decideAppealAsOperator(
  store: EventStore<Transaction<object>>,
  stakeId: string,
  decision: 'accept' | 'refuse',
  note: string,
  now: Date,
): Promise<{ changed: boolean }> {
  const instant = Temporal.Instant.fromEpochMilliseconds(now.getTime());
  const command =
    decision === 'accept'
      ? ({ type: 'AcceptAppeal', decidedBy: 'operator', note, now: instant } as const)
      : ({ type: 'RefuseAppeal', note, now: instant } as const);
  const result = await executeCommand(
    store,
    stakeDecider,
    streams.stake(stakeId),
    command,
    actorMetadata('operator', `appeal-${decision}-${stakeId}`, now),
  );
  return { changed: result.append !== null };
}
