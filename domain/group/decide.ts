import { type Either, chain, left, map, right } from 'fp-ts/lib/Either.js';
import { pipe } from 'fp-ts/lib/function.js';
import { Temporal } from 'temporal-polyfill';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isoMillis } from '../shared/instant.ts';
import type { CreateGroup, GroupCommand, JoinGroup, LeaveGroup, RotateInviteCode } from './commands.ts';
import { GroupEvent } from './events.ts';
import { groupErrors } from './messages.ts';
import { normaliseInviteCode, validateGroupName } from './rules.ts';
import { GROUP_MEMBERS_MAX } from './policy.ts';
import { evolveGroup, type GroupState, initialGroupState } from './state.ts';

/*
 * GROUPS (§3 Group, §5 names and codes, §6 who may do what).
 *
 * A group is joined only with its current invite code, checked against the group's own stream rather than the read
 * model that found the group, so a code rotated a moment ago is refused at once. Codes are compared as people type
 * them (trimmed, any case) and stop working at their expiry; a freshly issued one must still be valid when handed
 * out. The owner is a member from the start and can never leave (a group always has exactly one owner, which the
 * membership property test pins), and only the owner rotates the code. Leaving and joining again is allowed.
 */

type Decision = Either<DomainError, readonly GroupEvent[]>;
type Active = Extract<GroupState, { status: 'active' }>;

/** Whether `now` is before the ISO instant `expiresAt`. */
const before = (now: Temporal.Instant, expiresAt: string) =>
  Temporal.Instant.compare(now, Temporal.Instant.from(expiresAt)) < 0;

/** A freshly issued code must be well formed and still valid when it is handed out. */
function issuedCode(code: string, expiresAt: string, now: Temporal.Instant): Either<DomainError, string> {
  return pipe(
    normaliseInviteCode(code),
    chain((c) => (before(now, expiresAt) ? right(c) : left(groupErrors.expiryInPast()))),
  );
}

function create(command: CreateGroup, state: GroupState): Decision {
  if (state.status !== 'none') return left(groupErrors.exists());
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
              createdAt: isoMillis(command.now),
            },
          },
        ]),
      ),
    ),
  );
}

function join(command: JoinGroup, state: Active): Decision {
  return pipe(
    normaliseInviteCode(command.inviteCode),
    chain((code): Decision => {
      if (code !== state.inviteCode) return left(groupErrors.codeMismatch());
      if (!before(command.now, state.inviteExpiresAt)) return left(groupErrors.codeExpired());
      if (state.members.has(command.userId)) return left(groupErrors.alreadyMember());
      if (state.members.size >= GROUP_MEMBERS_MAX) return left(groupErrors.full());
      const data = { groupId: state.groupId, userId: command.userId, joinedAt: isoMillis(command.now) };
      return right([{ type: 'MemberJoined', data }]);
    }),
  );
}

function leave(command: LeaveGroup, state: Active): Decision {
  const membership = state.members.get(command.userId);
  if (!membership) return left(groupErrors.notMember());
  if (membership.role === 'owner') return left(groupErrors.ownerCannotLeave());
  const data = { groupId: state.groupId, userId: command.userId, leftAt: isoMillis(command.now) };
  return right([{ type: 'MemberLeft', data }]);
}

function rotate(command: RotateInviteCode, state: Active): Decision {
  if (command.actorId !== state.ownerId) return left(groupErrors.notOwner());
  return pipe(
    issuedCode(command.inviteCode, command.inviteExpiresAt, command.now),
    map((inviteCode): readonly GroupEvent[] => [
      {
        type: 'InviteCodeRotated',
        data: {
          groupId: state.groupId,
          inviteCode,
          inviteExpiresAt: command.inviteExpiresAt,
          rotatedAt: isoMillis(command.now),
        },
      },
    ]),
  );
}

/** Decides a group command against the group's current state. */
export function decideGroup(command: GroupCommand, state: GroupState): Decision {
  if (command.type === 'CreateGroup') return create(command, state);
  if (state.status === 'none') return left(groupErrors.notFound());
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

/** The group aggregate (stream `group-<id>`): creation, membership by invite code, and code rotation. */
export const groupDecider = defineDecider<GroupCommand, GroupEvent, GroupState>({
  initialState: initialGroupState,
  evolve: evolveGroup,
  decide: decideGroup,
  eventSchema: GroupEvent,
});
