import type { Context } from 'hono';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import type { ReadModelName } from '../../projections/registry.ts';
import type { ProjectionRunner } from '../../projections/runner/projection-runner.ts';
import type { AppEnv } from './app-env.ts';

/**
 * Read-your-writes, bounded. A command route answers with rows from read models, so it waits until the ones it
 * reads have applied its events; but only those (not all nine: the ledger or the feed must not hold up a run), and
 * only for so long. Once the events are saved the answer is a success whatever happens next: if the read models
 * are late (a slow or failing projection, the database going away), the route answers its status with what it knows
 * (the new id) and says which read models are catching up, instead of an error the client would retry into a
 * duplicate. The error handler gives that answer (see savedWriteAnswer).
 */

/** The longest a write waits for its read models before answering without them. */
export const READ_MODELS_WAIT_MS = 2_000;

/** Names the read models a saved write's answer could not wait for (comma-separated). */
export const CATCHING_UP_HEADER = 'X-Read-Models-Catching-Up';

/** A write that has been saved: the answer it gets if its read models cannot be read in time. */
export interface SavedWrite {
  readonly status: 200 | 201;
  /** The answer's `data` without read models: at least the saved object's id. */
  readonly data: Readonly<Record<string, unknown>>;
  /** The read models the route's answer reads. */
  readonly needs: readonly ReadModelName[];
}

/** Thrown when the read models a saved write needs did not reach it in time. */
export class ReadModelsCatchingUp extends Error {
  readonly behind: readonly string[];

  constructor(behind: readonly string[]) {
    super(`Read models ${behind.join(', ')} have not reached the write yet`);
    this.name = 'ReadModelsCatchingUp';
    this.behind = behind;
  }
}

/**
 * Call right after a command appended at `position` (null: it changed nothing, so there is nothing to wait for).
 * Marks the request's write as saved, then waits up to READ_MODELS_WAIT_MS for the read models in `write.needs`.
 *
 * @example
 * const { runId, position } = await logRun(context, body);
 * await awaitReadModels(c, deps.projections, position, { needs: ['runs', 'goals'], status: 201, data: { id: runId } });
 * return c.json(await savedRun(context.userId, runId), 201);
 */
export async function awaitReadModels(
  c: Context<AppEnv>,
  projections: ProjectionRunner,
  position: LogPosition | null,
  write: SavedWrite,
): Promise<void> {
  if (!position) return;
  c.set('savedWrite', write);
  const behind = await projections.reached(position, { projections: write.needs, timeoutMs: READ_MODELS_WAIT_MS });
  if (behind.length > 0) throw new ReadModelsCatchingUp(behind);
}

/** The answer to a saved write whose read models could not be read: its status, its id, and which are behind. */
export function savedWriteAnswer(c: Context<AppEnv>, saved: SavedWrite, error: unknown): Response {
  const behind = error instanceof ReadModelsCatchingUp ? error.behind : saved.needs;
  c.header(CATCHING_UP_HEADER, behind.join(', '));
  return c.json({ success: true as const, data: saved.data, catching_up: behind }, saved.status);
}
