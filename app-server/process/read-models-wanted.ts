import { CommitNotifier } from '../adapters/event-store/postgres/commit-notifier.ts';
import type { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import type { Database } from '../db/database.ts';

/*
 * A worker lingers after a short batch (WORKER_LINGER_MS), so a stream of writes is applied a batch at a time, and the
 * worker's statements per run fall. A request that waits for read models (read-your-writes, http/read-your-writes.ts)
 * must not pay for that linger: when its wait finds projections behind, its process says so on this channel, and every
 * process that applies the projections ends its linger at once (Engine.hurry). So batches gather while nobody waits,
 * and a write that waits is answered as soon as the worker has applied it. The API replicas wait and the worker
 * applies, hence a channel of the database rather than a call.
 */
export const READ_MODELS_WANTED_CHANNEL = 'ss_read_models_wanted';

/**
 * Tells whoever applies the projections that a request waits for them: `notify()` never throws and never waits. The
 * event store's own announcer (commit-notifier.ts): its NOTIFY is a tiny transaction of its own that does not wait for
 * the WAL, so it never holds the writers' commits behind the cluster-wide NOTIFY lock, and a burst of waiters sends one
 * trailing notification per interval. Best effort: a lost one costs a request the rest of a linger.
 */
export function readModelsWanted(database: Pick<Database, 'db'>): CommitNotifier {
  return new CommitNotifier(database.db, READ_MODELS_WANTED_CHANNEL);
}

/**
 * Ends the projections' linger whenever a request anywhere waits for them (a process that runs the projections with
 * a linger). Returns a function that stops listening. A lost LISTEN connection is re-established by the database layer;
 * requests asking meanwhile get their read models after a linger.
 */
export function hurryWhenAsked(
  database: Pick<Database, 'listen'>,
  projections: Pick<ProjectionRunner, 'hurry'>,
): Promise<() => Promise<void>> {
  return database.listen(READ_MODELS_WANTED_CHANNEL, () => projections.hurry());
}
