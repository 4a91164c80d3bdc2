import fc from 'fast-check';
import { isRight } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { GroupCommand } from './commands.ts';
import { groupDecider } from './decide.ts';
import type { GroupState } from './state.ts';

const users = ['owner', 'ann', 'bob', 'cat'];
const codes = ['ABCD2345', 'abcd2345', 'NEWCODE1', 'SHORT', 'ZZZZ9999'];
const hours = fc.integer({ min: 0, max: 400 });
const start = Temporal.Instant.from('2025-03-03T00:00:00Z');
const at = (h: number) => start.add({ hours: h });

// fast-check builds random command sequences; the test applies the accepted ones and checks the invariants hold
// after every step, whatever the order.

const command: fc.Arbitrary<GroupCommand> = fc.oneof(
  fc.record({ user: fc.constantFrom(...users), code: fc.constantFrom(...codes), h: hours }).map(
    ({ user, code, h }): GroupCommand => ({
      type: 'JoinGroup',
      userId: user,
      inviteCode: code,
      now: at(h),
    }),
  ),
  fc
    .record({ user: fc.constantFrom(...users), h: hours })
    .map(({ user, h }): GroupCommand => ({ type: 'LeaveGroup', userId: user, now: at(h) })),
  fc
    .record({
      user: fc.constantFrom(...users),
      code: fc.constantFrom(...codes),
      h: hours,
      ttl: fc.integer({ min: -5, max: 200 }),
    })
    .map(
      ({ user, code, h, ttl }): GroupCommand => ({
        type: 'RotateInviteCode',
        actorId: user,
        inviteCode: code,
        inviteExpiresAt: at(h + ttl).toString(),
        now: at(h),
      }),
    ),
);

describe('group membership invariants under random command sequences', () => {
  it('the owner is always a member, never leaves, and there is exactly one owner', () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        let state: GroupState = groupDecider.evolve(groupDecider.initialState, {
          type: 'GroupCreated',
          data: {
            groupId: 'g',
            name: 'Crew',
            ownerId: 'owner',
            inviteCode: 'ABCD2345',
            inviteExpiresAt: at(100).toString(),
            createdAt: at(0).toString(),
          },
        });
        for (const c of commands) {
          const result = groupDecider.decide(c, state);
          if (isRight(result)) state = result.right.reduce(groupDecider.evolve, state);
          if (state.status !== 'active') throw new Error('group vanished');
          expect(state.members.get('owner')?.role).toBe('owner');
          expect([...state.members.values()].filter((m) => m.role === 'owner')).toHaveLength(1);
          expect(state.inviteCode).toHaveLength(8);
          expect(state.inviteCode).toBe(state.inviteCode.toUpperCase());
          if (c.type === 'LeaveGroup' && c.userId === 'owner') expect(isRight(result)).toBe(false);
          if (c.type === 'RotateInviteCode' && c.actorId !== 'owner') expect(isRight(result)).toBe(false);
        }
      }),
    );
  });
});
