import { sql, type Transaction } from 'kysely';

/** The users each open transaction holds the lock of (an advisory transaction lock lasts until its end). */
const lockedBy = new WeakMap<Transaction<object>, Set<string>>();

/**
 * Locks the users whose derived rows (a goal's progress, a runner's records) a transaction recomputes. Two appends
 * for one runner at once (two runs, a run and a new goal) would each recompute from a snapshot without the other's
 * rows, and the later commit would lose the other's share. Under this lock the later one waits, and its next statement
 * (READ COMMITTED) sees the earlier one's rows. Sorted, in one statement: no cycles.
 *
 * A user already locked by this transaction is not asked for again: the runs and the goals projectors both lock the
 * runner of a run applied inline, and the second statement would only take a lock the transaction holds.
 */
export async function lockUsersReadModels(tx: Transaction<object>, userIds: Iterable<string>): Promise<void> {
  const held = lockedBy.get(tx) ?? new Set<string>();
  const users = [...new Set(userIds)].filter((u) => !held.has(u)).sort();
  if (users.length === 0) return;
  await sql`
    SELECT pg_advisory_xact_lock(hashtextextended('read-model-user:' || s.u, 0))
    FROM (SELECT u FROM unnest(${users}::text[]) AS u ORDER BY u) AS s`.execute(tx);
  for (const u of users) held.add(u);
  lockedBy.set(tx, held);
}

/**
 * After a ROLLBACK TO SAVEPOINT: the locks taken since the savepoint went with it, so this transaction must ask
 * for them again (the rebuild's catch-up rolls a refused batch back this way).
 */
export function forgetUserLocks(tx: Transaction<object>): void {
  lockedBy.delete(tx);
}
