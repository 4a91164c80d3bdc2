import { Temporal } from 'temporal-polyfill';
import { describe, it } from 'vitest';
import { given } from '../shared/testing/given-when-then.ts';
import { groupDecider } from './decide.ts';
import { GROUP_MEMBERS_MAX } from './policy.ts';
import type { GroupEvent } from './events.ts';

const now = '2025-03-03T10:00:00.000Z';
const later = '2025-03-05T10:00:00.000Z';
const expires = '2025-03-10T10:00:00Z';
const afterExpiry = '2025-03-11T10:00:00Z';
const instant = (iso: string) => Temporal.Instant.from(iso);

const created: GroupEvent = {
  type: 'GroupCreated',
  data: {
    groupId: 'g1',
    name: 'Morning Crew',
    ownerId: 'owner',
    inviteCode: 'ABCD2345',
    inviteExpiresAt: expires,
    createdAt: now,
  },
};
const bobJoined: GroupEvent = { type: 'MemberJoined', data: { groupId: 'g1', userId: 'bob', joinedAt: later } };

const create = (name: string, inviteCode = 'ABCD2345', inviteExpiresAt = expires) =>
  ({
    type: 'CreateGroup',
    groupId: 'g1',
    name,
    ownerId: 'owner',
    inviteCode,
    inviteExpiresAt,
    now: instant(now),
  }) as const;

describe('CreateGroup', () => {
  it('creates a group with a trimmed name and the issued code', () => {
    given(groupDecider).when(create('  Morning Crew  ')).then([created]);
  });
  it('uppercases an issued code', () => {
    given(groupDecider).when(create('Morning Crew', 'abcd2345')).then([created]);
  });
  it('accepts names of exactly 3 and 50 characters', () => {
    const fifty = 'x'.repeat(50);
    given(groupDecider)
      .when(create(fifty))
      .then([{ ...created, data: { ...created.data, name: fifty } } as GroupEvent]);
    given(groupDecider)
      .when(create(' abc '))
      .then([{ ...created, data: { ...created.data, name: 'abc' } } as GroupEvent]);
  });
  it('refuses a name shorter than 3 characters after trimming', () => {
    given(groupDecider)
      .when(create('  ab  '))
      .thenRejects('group_name_too_short', 'Group name must be at least 3 characters');
  });
  it('refuses a name longer than 50 characters', () => {
    given(groupDecider)
      .when(create('x'.repeat(51)))
      .thenRejects('group_name_too_long', 'Group name must be at most 50 characters');
  });
  it('refuses an issued code that is not 8 characters', () => {
    given(groupDecider)
      .when(create('Morning Crew', 'ABC'))
      .thenRejects('invite_code_length', 'Invite code must be 8 characters');
  });
  it('refuses a code that has already expired', () => {
    given(groupDecider)
      .when(create('Morning Crew', 'ABCD2345', now))
      .thenRejects('invite_expiry_in_past', 'Invite code expiry must be in the future');
  });
  it('refuses to create a group twice', () => {
    given(groupDecider, [created]).when(create('Morning Crew')).thenRejects('group_exists', 'Group already exists');
  });
});

describe('JoinGroup', () => {
  const join = (userId: string, inviteCode: string, at = later) =>
    ({ type: 'JoinGroup', userId, inviteCode, now: instant(at) }) as const;

  it('joins with the current code, entered in any case with spaces', () => {
    given(groupDecider, [created]).when(join('bob', '  abcd2345 ')).then([bobJoined]);
  });
  it('refuses a code of the wrong length', () => {
    given(groupDecider, [created])
      .when(join('bob', 'ABCD234'))
      .thenRejects('invite_code_length', 'Invite code must be 8 characters');
  });
  it('refuses a code that does not match', () => {
    given(groupDecider, [created])
      .when(join('bob', 'ZZZZ9999'))
      .thenRejects('invite_code_mismatch', 'Invalid invite code');
  });
  it('refuses an expired code', () => {
    given(groupDecider, [created])
      .when(join('bob', 'ABCD2345', afterExpiry))
      .thenRejects('invite_code_expired', 'This invite code has expired');
  });
  it('refuses the old code after a rotation', () => {
    const rotated: GroupEvent = {
      type: 'InviteCodeRotated',
      data: { groupId: 'g1', inviteCode: 'NEWCODE1', inviteExpiresAt: expires, rotatedAt: later },
    };
    given(groupDecider, [created, rotated])
      .when(join('bob', 'ABCD2345'))
      .thenRejects('invite_code_mismatch', 'Invalid invite code');
  });
  it('refuses a member joining again, and the owner joining their own group', () => {
    given(groupDecider, [created, bobJoined])
      .when(join('bob', 'ABCD2345'))
      .thenRejects('already_member', 'You are already a member of this group');
    given(groupDecider, [created])
      .when(join('owner', 'ABCD2345'))
      .thenRejects('already_member', 'You are already a member of this group');
  });
  it('refuses a join once the group has GROUP_MEMBERS_MAX members, and takes one again after a member leaves', () => {
    const members: GroupEvent[] = Array.from({ length: GROUP_MEMBERS_MAX - 1 }, (_, i) => ({
      type: 'MemberJoined',
      data: { groupId: 'g1', userId: `m${i}`, joinedAt: later },
    }));
    given(groupDecider, [created, ...members])
      .when(join('bob', 'ABCD2345'))
      .thenRejects('group_full', `This group is full (at most ${GROUP_MEMBERS_MAX} members)`);
    const left: GroupEvent = { type: 'MemberLeft', data: { groupId: 'g1', userId: 'm0', leftAt: later } };
    given(groupDecider, [created, ...members, left])
      .when(join('bob', 'ABCD2345'))
      .then([bobJoined]);
  });
  it('refuses to join a group that does not exist', () => {
    given(groupDecider).when(join('bob', 'ABCD2345')).thenRejects('group_not_found', 'Group not found');
  });
  it('lets a member who left join again', () => {
    const left: GroupEvent = { type: 'MemberLeft', data: { groupId: 'g1', userId: 'bob', leftAt: later } };
    given(groupDecider, [created, bobJoined, left]).when(join('bob', 'ABCD2345')).then([bobJoined]);
  });
});

describe('LeaveGroup', () => {
  const leave = (userId: string) => ({ type: 'LeaveGroup', userId, now: instant(later) }) as const;

  it('lets a member leave', () => {
    given(groupDecider, [created, bobJoined])
      .when(leave('bob'))
      .then([{ type: 'MemberLeft', data: { groupId: 'g1', userId: 'bob', leftAt: later } }]);
  });
  it('refuses the owner', () => {
    given(groupDecider, [created])
      .when(leave('owner'))
      .thenRejects('owner_cannot_leave', 'The group owner cannot leave the group');
  });
  it('refuses someone who is not a member', () => {
    given(groupDecider, [created]).when(leave('eve')).thenRejects('not_a_member', 'You are not a member of this group');
  });
  it('refuses when the group does not exist', () => {
    given(groupDecider).when(leave('bob')).thenRejects('group_not_found', 'Group not found');
  });
});

describe('RotateInviteCode', () => {
  const rotate = (actorId: string, inviteCode = 'newcode1', inviteExpiresAt = afterExpiry) =>
    ({ type: 'RotateInviteCode', actorId, inviteCode, inviteExpiresAt, now: instant(later) }) as const;

  it('lets the owner issue a new code', () => {
    given(groupDecider, [created])
      .when(rotate('owner'))
      .then([
        {
          type: 'InviteCodeRotated',
          data: { groupId: 'g1', inviteCode: 'NEWCODE1', inviteExpiresAt: afterExpiry, rotatedAt: later },
        },
      ]);
  });
  it('refuses a member who is not the owner', () => {
    given(groupDecider, [created, bobJoined])
      .when(rotate('bob'))
      .thenRejects('not_owner', 'Only the group owner can change the invite code');
  });
  it('refuses a malformed or already expired new code', () => {
    given(groupDecider, [created])
      .when(rotate('owner', 'SHORT'))
      .thenRejects('invite_code_length', 'Invite code must be 8 characters');
    given(groupDecider, [created])
      .when(rotate('owner', 'NEWCODE1', now))
      .thenRejects('invite_expiry_in_past', 'Invite code expiry must be in the future');
  });
  it('refuses when the group does not exist', () => {
    given(groupDecider).when(rotate('owner')).thenRejects('group_not_found', 'Group not found');
  });
});
