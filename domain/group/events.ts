import { z } from 'zod';

const instant = z.iso.datetime({ offset: true });

/** A group was created; its creator is its owner and first member. */
export const GroupCreated = z.object({
  type: z.literal('GroupCreated'),
  data: z.object({
    groupId: z.string().min(1),
    name: z.string().min(3).max(50),
    ownerId: z.string().min(1),
    inviteCode: z.string().length(8),
    inviteExpiresAt: instant,
    createdAt: instant,
  }),
});

/** A user joined with the current invite code. */
export const MemberJoined = z.object({
  type: z.literal('MemberJoined'),
  data: z.object({ groupId: z.string(), userId: z.string().min(1), joinedAt: instant }),
});

/** A (non-owner) member left. */
export const MemberLeft = z.object({
  type: z.literal('MemberLeft'),
  data: z.object({ groupId: z.string(), userId: z.string().min(1), leftAt: instant }),
});

/** The owner replaced the invite code; the old one stops working at once. */
export const InviteCodeRotated = z.object({
  type: z.literal('InviteCodeRotated'),
  data: z.object({
    groupId: z.string(),
    inviteCode: z.string().length(8),
    inviteExpiresAt: instant,
    rotatedAt: instant,
  }),
});

/** Every event of a group stream, validated by zod when read back from the store. */
export const GroupEvent = z.discriminatedUnion('type', [GroupCreated, MemberJoined, MemberLeft, InviteCodeRotated]);

/** Every event of a group stream. */
export type GroupEvent = z.infer<typeof GroupEvent>;
