import { type Kysely, sql } from 'kysely';
import { domainError } from '../../../domain/shared/decider.ts';
import { DomainRefusal } from '../domain-refusal.ts';

/** The refusal of a group beyond GROUPS_MAX_PER_USER (409). */
export const tooManyGroups = (max: number) =>
  new DomainRefusal(
    domainError('conflict', 'group_limit', `You can be in at most ${max} groups. Leave one to create or join another.`),
  );

/**
 * Takes one of the user's group slots (GROUPS_MAX_PER_USER, created and joined together) in `tx`, the transaction
 * that appends the group's event: the count and the membership commit or roll back together, so a parallel burst of
 * creates and joins takes exactly the free slots (the upsert's row lock orders them; increment first, then check).
 * A user's first count starts from the groups read model (memberships from before the count existed).
 */
export async function takeGroupSlot(tx: Kysely<object>, userId: string, max: number): Promise<void> {
  const { rows } = await sql<{ groups: number }>`
    INSERT INTO user_group_counts AS c (user_id, groups)
    VALUES (${userId}, (SELECT count(*)::int FROM group_members WHERE user_id = ${userId}) + 1)
    ON CONFLICT (user_id) DO UPDATE SET groups = c.groups + 1
    RETURNING groups`.execute(tx);
  if ((rows[0]?.groups ?? 0) > max) throw tooManyGroups(max);
}

/** Gives a slot back when the user leaves a group (in the transaction that appends MemberLeft). */
export async function releaseGroupSlot(tx: Kysely<object>, userId: string): Promise<void> {
  await sql`UPDATE user_group_counts SET groups = groups - 1 WHERE user_id = ${userId} AND groups > 0`.execute(tx);
}
