import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../../domain/run/decide.ts';
import { runErrors } from '../../../domain/run/messages.ts';
import type { RunState } from '../../../domain/run/state.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import type { RunBody } from '../../../domain/validation/run.ts';
import { DomainRefusal } from '../domain-refusal.ts';
import { executeCommand } from '../execute-command.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../goals/command-context.ts';

/**
 * POST /runs: a run tracked with the app's GPS. The distance is recomputed from the track by the decider (the
 * client's `distance_km` is not trusted) and the run gets its verification verdict there.
 */
export async function logRun(
  context: UserCommandContext,
  body: RunBody,
): Promise<{ runId: string; position: LogPosition }> {
  const runId = randomUUID();
  const result = await executeCommand(
    context.store,
    runDecider,
    `run-${runId}`,
    {
      type: 'LogGpsRun',
      runId,
      userId: context.userId,
      startedAt: Temporal.Instant.from(body.started_at),
      durationSec: body.duration_sec,
      positions: body.gps_data.positions,
      notes: body.notes,
      now: instantOf(context),
    },
    userMetadata(context),
  );
  if (!result.append) throw new Error('LogGpsRun appended nothing');
  return { runId, position: result.append.position };
}

/** Another user's run, or a deleted one, answers 404 like a run that does not exist. */
function ownRun(state: RunState, userId: string): void {
  if (state.status !== 'recorded' || state.run.userId !== userId) throw new DomainRefusal(runErrors.notFound());
}

/** PATCH /runs/{id} (notes) and DELETE /runs/{id}. Returns the position to wait for (null: nothing changed). */
export async function changeRun(
  context: UserCommandContext,
  runId: string,
  change: { type: 'EditNotes'; notes: string | null } | { type: 'DeleteRun' },
): Promise<{ position: LogPosition | null }> {
  const now = instantOf(context);
  const result = await executeCommand(
    context.store,
    runDecider,
    `run-${runId}`,
    (state) => {
      ownRun(state, context.userId);
      return change.type === 'EditNotes'
        ? { type: 'EditNotes' as const, userId: context.userId, notes: change.notes, now }
        : { type: 'DeleteRun' as const, userId: context.userId, now };
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
