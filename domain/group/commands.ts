import type { Temporal } from 'temporal-polyfill';

/** Create a group; the server supplies the id, an unguessable 8-character invite code and its expiry. */
export interface CreateGroup {
  readonly type: 'CreateGroup';
  readonly groupId: string;
  readonly name: string;
  readonly ownerId: string;
  readonly inviteCode: string;
  /** ISO-8601 instant, stored as given. */
  readonly inviteExpiresAt: string;
  readonly now: Temporal.Instant;
}

/** Join with an invite code as the user typed it (trimmed and uppercased here). */
export interface JoinGroup {
  readonly type: 'JoinGroup';
  readonly userId: string;
  readonly inviteCode: string;
  readonly now: Temporal.Instant;
}

/** Leave a group; refused for the owner. */
export interface LeaveGroup {
  readonly type: 'LeaveGroup';
  readonly userId: string;
  readonly now: Temporal.Instant;
}

/** Replace the invite code (owner only); the server supplies the new code and expiry. */
export interface RotateInviteCode {
  readonly type: 'RotateInviteCode';
  readonly actorId: string;
  readonly inviteCode: string;
  readonly inviteExpiresAt: string;
  readonly now: Temporal.Instant;
}

/** Every command a group accepts. */
export type GroupCommand = CreateGroup | JoinGroup | LeaveGroup | RotateInviteCode;
