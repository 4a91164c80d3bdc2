import { Temporal } from 'temporal-polyfill';
import { runDecider } from '../../domain/run/decide.ts';
import { importedRunId } from '../../domain/run/import-stream.ts';
import { runErrors } from '../../domain/run/messages.ts';
import type { EventStore, LogPosition } from '../../domain/shared/event-store.ts';
import { round2 } from '../../domain/shared/units.ts';
import type { Transaction } from 'kysely';
import type { StravaActivity, StravaClient } from '../adapters/strava/strava-client.ts';
import { DomainRefusal } from '../commands/domain-refusal.ts';
import { executeCommand } from '../commands/execute-command.ts';
import { processMetadata } from '../commands/event-metadata.ts';
import { STRAVA } from './strava-actor.ts';
import { streams } from '../../domain/shared/streams.ts';

/** Strava sport types that are runs on foot (FACTS); VirtualRun is imported and flagged by the verification policy. */
export const RUN_SPORT_TYPES: ReadonlySet<string> = new Set(['Run', 'TrailRun', 'VirtualRun']);

export interface ImportDeps {
  readonly store: EventStore<Transaction<object>>;
  readonly client: StravaClient;
}

/**
 * imported: a run was recorded; already: its stream exists (imported before, or imported and deleted by the user);
 * skipped: not a run (rides, swims…); refused: the run decider refused it (in the future, no moving time…).
 */
export type ImportOutcome = 'imported' | 'already' | 'skipped' | 'refused';

export const runStreamOf = (activityId: string) => streams.run(importedRunId('strava', activityId));

/** Whether an activity is a run that could be imported. */
export function isRunActivity(activity: StravaActivity): boolean {
  return RUN_SPORT_TYPES.has(activity.sportType);
}

/** Whether the activity's run stream exists already (saves the streams request for a known activity). */
export async function alreadyImported(store: ImportDeps['store'], activityId: string): Promise<boolean> {
  return (await store.readStream(runStreamOf(activityId), { maxCount: 1 })).length > 0;
}

/**
 * Imports one Strava activity as the user's run through the run decider's ImportRun: distance m → km (2 decimals),
 * moving time, start_date (UTC), the GPS track when Strava has one, and the flags the verification policy reads.
 * Idempotent per activity id: the stream is `run-strava-<id>`, and an ImportRun on an existing stream is a no-op.
 */
export async function importActivity(
  deps: ImportDeps,
  input: { userId: string; accessToken: string; activity: StravaActivity; now: Date; correlationId: string },
): Promise<{ outcome: ImportOutcome; position: LogPosition | null }> {
  const { activity } = input;
  if (!isRunActivity(activity)) return { outcome: 'skipped', position: null };
  if (await alreadyImported(deps.store, activity.id)) return { outcome: 'already', position: null };
  let startedAt: Temporal.Instant;
  try {
    startedAt = Temporal.Instant.from(activity.startDate);
  } catch {
    return { outcome: 'refused', position: null };
  }
  const positions = await deps.client.getTrack(input.accessToken, activity);
  const runId = importedRunId('strava', activity.id);
  try {
    const result = await executeCommand(
      deps.store,
      runDecider,
      streams.run(runId),
      {
        type: 'ImportRun',
        runId,
        userId: input.userId,
        source: 'strava',
        importId: activity.id,
        startedAt,
        distanceKm: round2(activity.distanceM / 1000),
        durationSec: activity.movingTimeSec,
        elapsedSec: activity.elapsedTimeSec,
        positions,
        flags: {
          manual: activity.manual,
          trainer: activity.trainer,
          flagged: activity.flagged,
          sportType: activity.sportType,
        },
        notes: null,
        now: Temporal.Instant.fromEpochMilliseconds(input.now.getTime()),
      },
      processMetadata(STRAVA, input.now, input.correlationId),
    );
    return result.append
      ? { outcome: 'imported', position: result.append.position }
      : { outcome: 'already', position: null };
  } catch (error) {
    if (error instanceof DomainRefusal) return { outcome: 'refused', position: null };
    throw error;
  }
}

/**
 * Deletes the run imported from an activity (Strava says it was deleted, or it is no longer a run). Only the
 * owner's run; nothing when it was never imported or is already deleted. Returns whether a run was deleted.
 */
export async function removeImportedRun(
  store: ImportDeps['store'],
  input: { userId: string; activityId: string; now: Date; correlationId: string },
): Promise<boolean> {
  const now = Temporal.Instant.fromEpochMilliseconds(input.now.getTime());
  try {
    const result = await executeCommand(
      store,
      runDecider,
      runStreamOf(input.activityId),
      (state) => {
        if (state.status !== 'recorded' || state.run.userId !== input.userId)
          throw new DomainRefusal(runErrors.notFound());
        return { type: 'DeleteRun' as const, userId: input.userId, now };
      },
      processMetadata(STRAVA, input.now, input.correlationId),
    );
    return result.append !== null;
  } catch (error) {
    if (error instanceof DomainRefusal) return false;
    throw error;
  }
}
