import { stakeDecider } from '../../../domain/stake/decide.ts';
import { stakeErrors } from '../../../domain/stake/messages.ts';
import { runDecider } from '../../../domain/run/decide.ts';
import { runErrors } from '../../../domain/run/messages.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import type { AppealBody } from '../../../domain/validation/stake-appeal.ts';
import { groupMatesOf } from '../../../projections/groups/group-queries.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand, loadAggregate } from '../execute-command.ts';

/**
 * POST /stakes/{id}/appeal: the runner appeals their own missed staked week (domain/stake/appeal-decide.ts). Another
 * runner's stake, and a run that is not the runner's own, answer 404 as if they did not exist. The evidence rules
 * decide in the goal lifecycle process, right after; the answer says the appeal was received.
 */
export async function appealStake(
  context: UserCommandContext,
  stakeId: string,
  body: AppealBody,
): Promise<{ position: LogPosition | null }> {
  for (const runId of body.run_ids) {
    const { state } = await loadAggregate(context.store, runDecider, streams.run(runId));
    if (state.status !== 'recorded' || state.run.userId !== context.userId) {
      throw new DomainRefusal(runErrors.notFound());
    }
  }
  const now = instantOf(context);
  const result = await executeCommand(
    context.store,
    stakeDecider,
    streams.stake(stakeId),
    (state) => {
      if (state.status === 'none' || state.terms.userId !== context.userId) {
        throw new DomainRefusal(stakeErrors.notFound());
      }
      const { reason, note, run_ids: runIds } = body;
      return { type: 'AppealStake' as const, userId: context.userId, reason, note, runIds, now };
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}

/**
 * POST /stakes/{id}/vouch: a member of one of the stake owner's groups vouches that they ran (evidence for the
 * operator). Anyone else — the owner included, who is told they cannot vouch for themselves — learns nothing about
 * the stake: a stranger's try answers 404 as for a stake that does not exist.
 */
export async function vouchForStake(
  context: UserCommandContext,
  stakeId: string,
): Promise<{ position: LogPosition | null }> {
  const { state } = await loadAggregate(context.store, stakeDecider, streams.stake(stakeId));
  if (state.status === 'none') throw new DomainRefusal(stakeErrors.notFound());
  const owner = state.terms.userId;
  if (owner !== context.userId && !(await groupMatesOf(context.database.db, owner)).includes(context.userId)) {
    throw new DomainRefusal(stakeErrors.notFound());
  }
  const result = await executeCommand(
    context.store,
    stakeDecider,
    streams.stake(stakeId),
    { type: 'VouchForStake', voucherId: context.userId, now: instantOf(context) },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
