import { type Either, chain, left, map, right } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { isBefore } from '../gamification/time.ts';
import { type Decider, type DomainError, domainError } from '../shared/decider.ts';
import type { CreateGroup, GroupCommand, JoinGroup, LeaveGroup, RotateInviteCode } from './commands.ts';
import type { GroupEvent } from './events.ts';
import { type GroupState, initialGroupState } from './state.ts';
import { normaliseInviteCode, validateGroupName } from './rules.ts';

type Result = Either<DomainError, readonly GroupEvent[]>;
type Active = Extract<GroupState, { status: 'active' }>;

const notFound = () => left(domainError('not_found', 'group_not_found', 'Group not found'));

/** A freshly issued code must be well formed and still valid when it is handed out. */
function issuedCode(code: string, expiresAt: string, now: string): Either<DomainError, string> {
  return pipe(
    normaliseInviteCode(code),
    chain((c) =>
      isBefore(now, expiresAt)
        ? right(c)
        : left(domainError('invalid', 'invite_expiry_in_past', 'Invite code expiry must be in the future')),
    ),
  );
}

function create(command: CreateGroup, state: GroupState): Result {
  if (state.status !== 'none') return left(domainError('conflict', 'group_exists', 'Group already exists'));
  return pipe(
    validateGroupName(command.name),
    chain((name) =>
      pipe(
        issuedCode(command.inviteCode, command.inviteExpiresAt, command.now),
        map((inviteCode): readonly GroupEvent[] => [
          {
            type: 'GroupCreated',
            data: {
              groupId: command.groupId,
              name,
              ownerId: command.ownerId,
              inviteCode,
              inviteExpiresAt: command.inviteExpiresAt,
              createdAt: command.now,
            },
          },
        ]),
      ),
    ),
  );
}

function join(command: JoinGroup, state: Active): Result {
  return pipe(
    normaliseInviteCode(command.inviteCode),
    chain((code): Result => {
      if (code !== state.inviteCode) {
        return left(domainError('invalid', 'invite_code_mismatch', 'Invalid invite code'));
      }
      if (!isBefore(command.now, state.inviteExpiresAt)) {
        return left(domainError('invalid', 'invite_code_expired', 'This invite code has expired'));
      }
      if (state.members.has(command.userId)) {
        return left(domainError('conflict', 'already_member', 'You are already a member of this group'));
      }
      return right([
        { type: 'MemberJoined', data: { groupId: state.groupId, userId: command.userId, joinedAt: command.now } },
      ]);
    }),
  );
}

function leave(command: LeaveGroup, state: Active): Result {
  const membership = state.members.get(command.userId);
  if (!membership) return left(domainError('not_found', 'not_a_member', 'You are not a member of this group'));
  if (membership.role === 'owner') {
    return left(domainError('forbidden', 'owner_cannot_leave', 'The group owner cannot leave the group'));
  }
  return right([{ type: 'MemberLeft', data: { groupId: state.groupId, userId: command.userId, leftAt: command.now } }]);
}

function rotate(command: RotateInviteCode, state: Active): Result {
  if (command.actorId !== state.ownerId) {
    return left(domainError('forbidden', 'not_owner', 'Only the group owner can change the invite code'));
  }
  return pipe(
    issuedCode(command.inviteCode, command.inviteExpiresAt, command.now),
    map((inviteCode): readonly GroupEvent[] => [
      {
        type: 'InviteCodeRotated',
        data: { groupId: state.groupId, inviteCode, inviteExpiresAt: command.inviteExpiresAt, rotatedAt: command.now },
      },
    ]),
  );
}

/** Decides a group command against the group's current state. */
export function decideGroup(command: GroupCommand, state: GroupState): Result {
  if (command.type === 'CreateGroup') return create(command, state);
  if (state.status === 'none') return notFound();
  switch (command.type) {
    case 'JoinGroup':
      return join(command, state);
    case 'LeaveGroup':
      return leave(command, state);
    case 'RotateInviteCode':
      return rotate(command, state);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

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

/** The group aggregate (stream `group-<id>`): creation, membership by invite code, and code rotation. */
export const groupDecider: Decider<GroupCommand, GroupEvent, GroupState> = {
  initialState: initialGroupState,
  evolve: evolveGroup,
  decide: decideGroup,
};
