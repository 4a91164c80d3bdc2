import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import type { ManualClock } from '../../../../app-server/clock.ts';
import { inviteExpiry, newInviteCode } from '../../../../app-server/commands/groups/invite-code.ts';
import type { Runtime } from '../../../../app-server/runtime.ts';
import { groupDecider } from '../../../../domain/group/decide.ts';
import type { BenchFixture } from './fixture.ts';
import type { HistoryWriter } from './history-writer.ts';
import { inParallel } from './in-parallel.ts';
import { groupMembers, homeOf, type SeedShape } from './seed-shape.ts';

/** Every seeded user's password (one Argon2id hash, computed once): anyone can sign in as a seeded user. */
export const SEED_PASSWORD = 'correct horse battery';
type Users = BenchFixture['users'];

/** Registers every user through the auth service's store (identity, profile and UserRegistered), e-mail confirmed. */
export async function registerUsers(runtime: Runtime, shape: SeedShape, clock: ManualClock): Promise<Users> {
  const passwordHash = await runtime.auth.hasher.hash(SEED_PASSWORD);
  const users: Users = [];
  await inParallel(
    Array.from({ length: shape.users }, (_, i) => i),
    10,
    async (index) => {
      const home = homeOf(index);
      const email = `runner-${index}@bench.stridestake.test`;
      const user = await runtime.auth.users.register({
        email,
        passwordHash,
        displayName: `Runner ${index}`,
        timezone: home.timeZone,
        metadata: {},
        correlationId: randomUUID(),
      });
      await runtime.auth.users.update(user.id, { email_confirmed_at: clock.now() });
      users[index] = { index, id: user.id, email, timeZone: home.timeZone };
    },
  );
  return users;
}

/** Creates the groups (owner: the first member) and joins every other member with the invite code. */
export function createGroups(writer: HistoryWriter, shape: SeedShape, users: Users, now: Date): BenchFixture['groups'] {
  return Array.from({ length: shape.groups }, (_, g) => {
    const members = groupMembers(shape, g).map((i) => users[i]!.id);
    const groupId = randomUUID();
    const inviteCode = newInviteCode();
    const stream = `group-${groupId}`;
    const at = Temporal.Instant.fromEpochMilliseconds(now.getTime());
    writer.decide(
      groupDecider,
      stream,
      {
        type: 'CreateGroup',
        groupId,
        name: `Morning Runners ${g + 1}`,
        ownerId: members[0]!,
        inviteCode,
        inviteExpiresAt: inviteExpiry(now),
        now: at,
      },
      { actorId: members[0]!, now },
    );
    for (const userId of members.slice(1)) {
      writer.decide(groupDecider, stream, { type: 'JoinGroup', userId, inviteCode, now: at }, { actorId: userId, now });
    }
    return { id: groupId, members };
  });
}
