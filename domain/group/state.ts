/** A member's role: §6 knows owner and member only. */
export type GroupRole = 'owner' | 'member';

/** One membership as the group remembers it. */
export interface Membership {
  readonly role: GroupRole;
  readonly joinedAt: string;
}

/** A group before creation, or an existing one with its members and current invite code. */
export type GroupState =
  | { readonly status: 'none' }
  | {
      readonly status: 'active';
      readonly groupId: string;
      readonly name: string;
      readonly ownerId: string;
      readonly inviteCode: string;
      readonly inviteExpiresAt: string;
      readonly members: ReadonlyMap<string, Membership>;
    };

/** The state of a group stream with no events. */
export const initialGroupState: GroupState = { status: 'none' };
