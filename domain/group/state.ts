import type { GroupEvent } from './events.ts';

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

/** Applies one group event to the state. */
export function evolveGroup(state: GroupState, event: GroupEvent): GroupState {
  switch (event.type) {
    case 'GroupCreated': {
      const { groupId, name, ownerId, inviteCode, inviteExpiresAt, createdAt } = event.data;
      const members = new Map([[ownerId, { role: 'owner' as const, joinedAt: createdAt }]]);
      return { status: 'active', groupId, name, ownerId, inviteCode, inviteExpiresAt, members };
    }
    case 'MemberJoined': {
      if (state.status !== 'active') return state;
      const members = new Map(state.members);
      members.set(event.data.userId, { role: 'member', joinedAt: event.data.joinedAt });
      return { ...state, members };
    }
    case 'MemberLeft': {
      if (state.status !== 'active') return state;
      const members = new Map(state.members);
      members.delete(event.data.userId);
      return { ...state, members };
    }
    case 'InviteCodeRotated':
      if (state.status !== 'active') return state;
      return { ...state, inviteCode: event.data.inviteCode, inviteExpiresAt: event.data.inviteExpiresAt };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
