import { randomUUID } from 'node:crypto';
import { groupDecider } from '../../../domain/group/decide.ts';
import type { AppendResult } from '../../../domain/shared/event-store.ts';
import { findGroupIdByInviteCode } from '../../../projections/groups/group-queries.ts';
import { type UserCommandContext, userMetadata } from '../goals/command-context.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand } from '../execute-command.ts';
import { inviteExpiry, newInviteCode } from './invite-code.ts';

const streamOf = (groupId: string) => `group-${groupId}`;

/** Creates a group owned by the caller, with a fresh invite code. */
export async function createGroup(context: UserCommandContext, name: string): Promise<{ groupId: string; position: AppendResult['position'] | null }> {
  const groupId = randomUUID();
  const result = await executeCommand(
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
      now: context.now.toISOString(),
    },
    userMetadata(context),
  );
  return { groupId, position: result.append?.position ?? null };
}

/**
 * Joins the group whose current code is `code` (normalised by the route). The read model finds the group; the
 * decider then checks the code, its expiry and membership against the stream itself, so a code rotated a moment
 * ago is refused even if the read model has not caught up.
 */
export async function joinGroup(context: UserCommandContext, code: string) {
  const groupId = await findGroupIdByInviteCode(context.database.db, code);
  if (!groupId) throw new DomainRefusal({ kind: 'invalid', code: 'invite_code_mismatch', message: 'Invalid invite code' });
  const result = await executeCommand(
    context.store,
    groupDecider,
    streamOf(groupId),
    { type: 'JoinGroup', userId: context.userId, inviteCode: code, now: context.now.toISOString() },
    userMetadata(context),
  );
  return { groupId, position: result.append?.position ?? null };
}

/** Leaves a group (refused for the owner by the decider). */
export async function leaveGroup(context: UserCommandContext, groupId: string) {
  const result = await executeCommand(
    context.store,
    groupDecider,
    streamOf(groupId),
    { type: 'LeaveGroup', userId: context.userId, now: context.now.toISOString() },
    userMetadata(context),
  );
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
      now: context.now.toISOString(),
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
