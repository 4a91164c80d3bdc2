import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import { GROUP_NAME_MAX, GROUP_NAME_MIN, INVITE_CODE_LENGTH } from './policy.ts';

/** A group was created; its creator is its owner and first member. */
export const GroupCreated = z.object({
  type: z.literal('GroupCreated'),
  data: z.object({
    groupId: entityId,
    name: z.string().min(GROUP_NAME_MIN).max(GROUP_NAME_MAX),
    ownerId: entityId,
    inviteCode: z.string().length(INVITE_CODE_LENGTH),
    inviteExpiresAt: isoInstant,
    createdAt: isoInstant,
  }),
});
/** A group was created. */
export type GroupCreated = z.infer<typeof GroupCreated>;

/** A user joined with the current invite code. */
export const MemberJoined = z.object({
  type: z.literal('MemberJoined'),
  data: z.object({ groupId: z.string(), userId: entityId, joinedAt: isoInstant }),
});
/** A user joined. */
export type MemberJoined = z.infer<typeof MemberJoined>;

/** A (non-owner) member left. */
export const MemberLeft = z.object({
  type: z.literal('MemberLeft'),
  data: z.object({ groupId: z.string(), userId: entityId, leftAt: isoInstant }),
});
/** A member left. */
export type MemberLeft = z.infer<typeof MemberLeft>;

/** The owner replaced the invite code; the old one stops working at once. */
export const InviteCodeRotated = z.object({
  type: z.literal('InviteCodeRotated'),
  data: z.object({
    groupId: z.string(),
    inviteCode: z.string().length(INVITE_CODE_LENGTH),
    inviteExpiresAt: isoInstant,
    rotatedAt: isoInstant,
  }),
});
/** The owner replaced the invite code. */
export type InviteCodeRotated = z.infer<typeof InviteCodeRotated>;

/** Every event of a group stream (`group-<id>`): the group decider's schema. */
export const GroupEvent = z.discriminatedUnion('type', [GroupCreated, MemberJoined, MemberLeft, InviteCodeRotated]);
/** Every event of a group stream. */
export type GroupEvent = z.infer<typeof GroupEvent>;
