import { sql, type Transaction } from 'kysely';

/**
 * Locks the users whose derived rows (a goal's progress, a runner's records) a transaction recomputes. Two appends
 * for one runner at once (two runs, a run and a new goal) would each recompute from a snapshot without the other's
 * rows, and the later commit would lose the other's share. Under this lock the later one waits, and its next statement
 * (READ COMMITTED) sees the earlier one's rows. Sorted, in one statement: no cycles.
 * `held`: the users this transaction already locked (ProjectionContext.heldUserLocks, shared by the projectors of one
 * inline append); none new, nothing is sent. Never kept across savepoints: a rolled-back one releases its locks.
 */
export async function lockUsersReadModels(
  tx: Transaction<object>,
  userIds: Iterable<string>,
  held?: Set<string>,
): Promise<void> {
  const users = [...new Set(userIds)].sort();
  if (users.length === 0) return;
  // The locks last until the transaction ends: what the append's first projector locked, the second already holds.
  if (held && users.every((u) => held.has(u))) return;
  await sql`
    SELECT pg_advisory_xact_lock(hashtextextended('read-model-user:' || s.u, 0))
    FROM (SELECT u FROM unnest(${users}::text[]) AS u ORDER BY u) AS s`.execute(tx);
  for (const user of users) held?.add(user);
}
