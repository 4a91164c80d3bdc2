import type { Context } from 'hono';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import type { ProjectionRunner } from '../../projections/engine/projection-runner.ts';
import { readModelsReachedBy } from '../../projections/read-models-reached.ts';
import type { ReadModelName } from '../../projections/registry.ts';
import type { AppEnv } from './app-env.ts';
import { writtenTypes } from './request-writes.ts';

/**
 * Read-your-writes, bounded. A command route answers with rows from read models, and the client reads others right
 * after, so it waits until the read models its events reach have applied them: those whose projector handles a type
 * it appended (projections/read-models-reached.ts; the inline ones, committed with the write, and the log
 * statistics never), not a list the route keeps; and only for so long. Once the events are saved the answer is a success whatever happens next: if the read models
 * are late (a slow or failing projection, the database going away), the route answers its status with what it knows
 * (the new id) and says which read models are catching up, instead of an error the client would retry into a
 * duplicate. The route gives that answer at its call site (readModelsAt); the error handler gives it for a failure
 * after the save (savedWriteAnswer).
 */

/** The longest a write waits for its read models before answering without them. */
export const READ_MODELS_WAIT_MS = 2_000;

/** Names the read models a saved write's answer could not wait for (comma-separated). */
export const CATCHING_UP_HEADER = 'X-Read-Models-Catching-Up';

/** What a route answers for a saved write if its read models cannot be read in time. */
export interface SavedAnswer {
  readonly status: 200 | 201;
  /** The answer's `data` without read models: at least the saved object's id. */
  readonly data: Readonly<Record<string, unknown>>;
}

/** A write that has been saved: its late answer, and the read models its events reach (derived, never listed). */
export interface SavedWrite extends SavedAnswer {
  readonly needs: readonly string[];
}

/**
 * What a route that saves runs leaves to catch up: the group feed's card, which the runner's answer does not show and
 * the feed shows once the worker applies it. A run's answer comes from the inline read models
 * (runs, goals) in its own transaction and never waits for a worker (issue 23): a new asynchronous read model that
 * a run reaches is waited for until it is named here, and tests/api/read-your-writes.test.ts fails until then.
 */
export const A_RUN_LEAVES_TO_CATCH_UP: readonly ReadModelName[] = ['feed'];

/** The wait's outcome: ready (answer in full), or the answer to give now, without the read models that are late. */
export type ReadModelsWait = { readonly ready: true } | { readonly ready: false; readonly answer: Response };

const READY: ReadModelsWait = { ready: true };

/**
 * Call right after a command appended at `position` (null: it changed nothing, so there is nothing to wait for),
 * with a command context from commandContext (its store notes what the request appended: request-writes.ts).
 * Marks the request's write as saved, then waits up to READ_MODELS_WAIT_MS for the read models its event types
 * reach (a keyed repeat: what its first call appended, recorded with its result); a write the request cannot tell
 * the types of waits for every one.
 * `leavesToCatchUp` names those the route deliberately answers without (A_RUN_LEAVES_TO_CATCH_UP), never a list of
 * what to wait for.
 * Late read models are an outcome, not an error: the route returns `answer` at the call site. A failure while
 * waiting (the database gone) still throws, and the error handler answers the saved write the same way
 * (savedWriteAnswer), never an error the client would retry.
 *
 * @example
 * const { runId, position } = await logRun(context, body);
 * const wait = await readModelsAt(c, deps.projections, position, { status: 201, data: { id: runId } });
 * if (!wait.ready) return wait.answer;
 * return c.json(await savedRun(context.userId, runId), 201);
 */
export async function readModelsAt(
  c: Context<AppEnv>,
  projections: ProjectionRunner,
  position: LogPosition | null,
  { leavesToCatchUp = [], ...answer }: SavedAnswer & { readonly leavesToCatchUp?: readonly ReadModelName[] },
): Promise<ReadModelsWait> {
  if (!position) return READY;
  const reached = readModelsReachedBy(writtenTypes(c, position));
  const needs = reached.filter((name) => !(leavesToCatchUp as readonly string[]).includes(name));
  const write: SavedWrite = { ...answer, needs };
  c.set('savedWrite', write);
  if (needs.length === 0) return READY;
  const behind = await projections.reached(position, { projections: needs, timeoutMs: READ_MODELS_WAIT_MS });
  return behind.length === 0 ? READY : { ready: false, answer: savedWriteAnswer(c, write, behind) };
}

/**
 * The answer to a saved write whose read models could not be read: its status, its id, and which are behind (all it
 * needs when unknown). A plain Response: the typed client (AppType) knows the full answer; `catching_up` tells a
 * client it got this one instead.
 */
export function savedWriteAnswer(
  c: Context<AppEnv>,
  saved: SavedWrite,
  behind: readonly string[] = saved.needs,
): Response {
  c.header(CATCHING_UP_HEADER, behind.join(', '));
  return c.json({ success: true as const, data: saved.data, catching_up: behind }, saved.status) as Response;
}
