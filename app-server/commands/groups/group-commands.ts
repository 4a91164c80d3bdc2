import type { Transaction } from 'kysely';
import { groupDecider } from '../../../domain/group/decide.ts';
import type { AppendResult } from '../../../domain/shared/event-store.ts';
import { findGroupIdByInviteCode } from '../../../projections/groups/group-queries.ts';
import { inTransaction, instantOf, newAggregateId, type UserCommandContext, userMetadata } from '../command-context.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand, executeInTransaction } from '../execute-command.ts';
import { releaseGroupSlot, takeGroupSlot } from './group-slots.ts';
import { inviteExpiry, newInviteCode } from './invite-code.ts';
import { streams } from '../../../domain/shared/streams.ts';

const streamOf = (groupId: string) => streams.group(groupId);

/**
 * Creates a group owned by the caller, with a fresh invite code; refused when the caller is in `maxGroups` groups
 * already (group-slots.ts, counted in the transaction of the append: `tx`, a keyed request's, or one of its own).
 */
export async function createGroup(
  context: UserCommandContext,
  name: string,
  maxGroups: number,
  tx?: Transaction<object>,
): Promise<{ groupId: string; position: AppendResult['position'] | null }> {
  const groupId = newAggregateId();
  const result = await inTransaction(context, tx, async (transaction) => {
    await takeGroupSlot(transaction, context.userId, maxGroups);
    return executeCommand(
      context.store,
      groupDecider,
      streamOf(groupId),
      {
        type: 'CreateGroup',
        groupId,
        name,
        ownerId: context.userId,
        inviteCode: newInviteCode(),
        inviteExpiresAt: inviteExpiry(context.now),
        now: instantOf(context),
      },
      userMetadata(context),
      { transaction },
    );
  });
  return { groupId, position: result.append?.position ?? null };
}

/**
 * Joins the group whose current code is `code` (normalised by the route). The read model finds the group; the
 * decider then checks the code, its expiry and membership against the stream itself, so a code rotated a moment
 * ago is refused even if the read model has not caught up. All in `tx` (a keyed request's, or one of its own): a keyed
 * retry of a join that went through answers its recorded result before any of this runs.
 */
export async function joinGroup(
  context: UserCommandContext,
  code: string,
  maxGroups: number,
  tx?: Transaction<object>,
) {
  return inTransaction(context, tx, async (transaction) => {
    const groupId = await findGroupIdByInviteCode(transaction, code);
    if (!groupId)
      throw new DomainRefusal({ kind: 'invalid', code: 'invite_code_mismatch', message: 'Invalid invite code' });
    await takeGroupSlot(transaction, context.userId, maxGroups);
    const result = await executeCommand(
      context.store,
      groupDecider,
      streamOf(groupId),
      { type: 'JoinGroup', userId: context.userId, inviteCode: code, now: instantOf(context) },
      userMetadata(context),
      { transaction },
    );
    return { groupId, position: result.append?.position ?? null };
  });
}

/** Leaves a group (refused for the owner by the decider). */
export async function leaveGroup(context: UserCommandContext, groupId: string) {
  const result = await executeInTransaction(context.database, async (tx) => {
    const left = await executeCommand(
      context.store,
      groupDecider,
      streamOf(groupId),
      { type: 'LeaveGroup', userId: context.userId, now: instantOf(context) },
      userMetadata(context),
      { transaction: tx },
    );
    await releaseGroupSlot(tx, context.userId);
    return left;
  });
  return { position: result.append?.position ?? null };
}

/** Replaces the invite code (owner only); the old code stops working at once. */
export async function rotateInviteCode(context: UserCommandContext, groupId: string) {
  const result = await executeCommand(
    context.store,
    groupDecider,
    streamOf(groupId),
    {
      type: 'RotateInviteCode',
      actorId: context.userId,
      inviteCode: newInviteCode(),
      inviteExpiresAt: inviteExpiry(context.now),
      now: instantOf(context),
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
