import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isStorableText } from '../shared/storable-text.ts';
import { round2 } from '../shared/units.ts';
import type { ImportRun, LogGpsRun, RunCommand } from './commands.ts';
import { RunEvent } from './events.ts';
import { gpsDistanceKm } from './geo.ts';
import { isPositionInRange, MAX_RUN_KM, runLimitErrors, runLimitProblem } from './limits.ts';
import { runErrors } from './messages.ts';
import {
  CLOCK_SKEW,
  MAX_IMPORTED_RUN_AGE_DAYS,
  MAX_LOGGED_RUN_AGE_DAYS,
  MAX_NOTES_LENGTH,
  MIN_RUN_POSITIONS,
  MIN_RUN_SECONDS,
} from './policy.ts';
import { evolveRun, initialRunState, type RunState } from './state.ts';
import { verifyRun } from './verification.ts';
import { runEventFits } from './event-fits.ts';
import { instantIso } from '../shared/instant.ts';

/*
 * A RUN (§3 Run, §4 tracking, §5 limits; the run policy is verification.ts).
 *
 * A run is recorded once, with the verdict the run policy gives it at that moment, and the verdict is stored, never
 * recomputed: a later policy must not re-judge a settled week. What is recorded is what the server can stand behind:
 * a GPS run's distance is measured from its track (the client's figure is not trusted), an import keeps the
 * service's figures with its flags. A run uploaded after the fact may not start long ago (backdating fed badges)
 * nor reach into a week already settled; a live session's run may, since the server saw it start. An import is
 * idempotent per activity (its stream id comes from the service's id), and a run the owner deleted stays a
 * tombstone, so a re-sync does not bring it back. Only the owner edits notes or deletes the run.
 */

type Decision = Either<DomainError, readonly RunEvent[]>;

const olderThan = (startedAt: Temporal.Instant, now: Temporal.Instant, days: number) =>
  Temporal.Instant.compare(startedAt, now.subtract({ hours: days * 24 })) < 0;

/** Refusals common to both ways of recording. */
function commonProblem(command: LogGpsRun | ImportRun): DomainError | null {
  const limits = runLimitProblem(
    command.type === 'ImportRun'
      ? { ...command, sportType: command.flags.sportType }
      : // A health store workout's route carries the workout's id: held to an import id's limits.
        { ...command, ...(command.healthWorkout ? { importId: command.healthWorkout.importId } : {}) },
  );
  if (limits !== null) return limits;
  if (!command.positions.every(isPositionInRange)) return runErrors.invalidPosition();
  if (Temporal.Instant.compare(command.startedAt, command.now.add(CLOCK_SKEW)) > 0) return runErrors.inFuture();
  if (command.notes !== null && command.notes.length > MAX_NOTES_LENGTH) return runErrors.notesTooLong();
  return null;
}

function logGps(command: LogGpsRun, state: RunState): Decision {
  // The stream is named by the recording (app-server/commands/runs/recording-id.ts): a deleted run stays deleted.
  if (state.status === 'deleted') return left(runErrors.recordingDeleted());
  if (state.status !== 'none') return left(runErrors.exists());
  if (!(command.durationSec >= MIN_RUN_SECONDS) || command.positions.length < MIN_RUN_POSITIONS) {
    return left(runErrors.tooShort());
  }
  const problem = commonProblem(command);
  if (problem !== null) return left(problem);
  const origin = command.recordedWith ?? null;
  if (origin && ![origin.creator, origin.device].every((t) => t === null || isStorableText(t))) {
    return left(runLimitErrors.unstorableText());
  }
  if (!command.live && !command.evidenceForStake) {
    if (olderThan(command.startedAt, command.now, MAX_LOGGED_RUN_AGE_DAYS)) {
      return left(runErrors.tooOld(MAX_LOGGED_RUN_AGE_DAYS));
    }
    if (command.weekSettled) return left(runErrors.weekSettled());
  }
  const distanceKm = gpsDistanceKm(command.positions);
  if (distanceKm > MAX_RUN_KM) return left(runLimitErrors.tooFar());
  const durationSec = Math.round(command.durationSec);
  const evidence = { distanceKm, durationSec, positions: command.positions, importFlags: null };
  const verification = verifyRun({
    ...evidence,
    elapsedSec: null,
    startedAtMs: command.startedAt.epochMilliseconds,
    recordedAtMs: command.now.epochMilliseconds,
  });
  return right([
    {
      type: 'RunRecorded',
      data: {
        runId: command.runId,
        userId: command.userId,
        source: command.healthWorkout?.source ?? 'gps',
        importId: command.healthWorkout?.importId ?? null,
        startedAt: instantIso(command.startedAt),
        ...evidence,
        notes: command.notes,
        verification,
        ...(origin ? { recordedWith: origin } : {}),
        recordedAt: instantIso(command.now),
      },
    },
  ]);
}

function importRun(command: ImportRun, state: RunState): Decision {
  // Already imported, or imported and deleted by the user: a re-sync changes nothing.
  if (state.status !== 'none') return right([]);
  if (!Number.isFinite(command.distanceKm) || command.distanceKm < 0 || !(command.durationSec > 0)) {
    return left(runErrors.invalidImport());
  }
  const problem = commonProblem(command);
  if (problem !== null) return left(problem);
  if (olderThan(command.startedAt, command.now, MAX_IMPORTED_RUN_AGE_DAYS)) {
    return left(runErrors.tooOld(MAX_IMPORTED_RUN_AGE_DAYS));
  }
  const evidence = {
    distanceKm: round2(command.distanceKm),
    durationSec: Math.round(command.durationSec),
    // Moving time never exceeds the elapsed time; a service that sends less is read as moving = elapsed.
    elapsedSec: Math.round(Math.max(command.elapsedSec, command.durationSec)),
    positions: command.positions,
    importFlags: command.flags,
  };
  const verification = verifyRun({
    ...evidence,
    startedAtMs: command.startedAt.epochMilliseconds,
    recordedAtMs: command.now.epochMilliseconds,
  });
  return right([
    {
      type: 'RunRecorded',
      data: {
        runId: command.runId,
        userId: command.userId,
        source: command.source,
        importId: command.importId,
        startedAt: instantIso(command.startedAt),
        ...evidence,
        notes: command.notes,
        verification,
        recordedAt: instantIso(command.now),
      },
    },
  ]);
}

/** Decides a run command (§3, §4, §5). */
export function decideRun(command: RunCommand, state: RunState): Decision {
  switch (command.type) {
    case 'LogGpsRun':
      return logGps(command, state);
    case 'ImportRun':
      return importRun(command, state);
    case 'EditNotes':
    case 'DeleteRun': {
      if (state.status !== 'recorded') return left(runErrors.notFound());
      if (state.run.userId !== command.userId) return left(runErrors.notOwner());
      const { runId } = state.run;
      if (command.type === 'DeleteRun') {
        return right([
          { type: 'RunDeleted', data: { runId, userId: command.userId, deletedAt: instantIso(command.now) } },
        ]);
      }
      if (command.notes !== null && command.notes.length > MAX_NOTES_LENGTH) return left(runErrors.notesTooLong());
      if (command.notes !== null && !isStorableText(command.notes)) return left(runLimitErrors.unstorableText());
      if (command.notes === state.run.notes) return right([]);
      return right([
        {
          type: 'RunNotesEdited',
          data: { runId, userId: state.run.userId, notes: command.notes, editedAt: instantIso(command.now) },
        },
      ]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The run aggregate, stream `run-<id>` (imports: `run-<importedRunId>`). */
export const runDecider = defineDecider<RunCommand, RunEvent, RunState>({
  initialState: initialRunState,
  evolve: evolveRun,
  decide: decideRun,
  eventSchema: RunEvent,
  eventFits: runEventFits,
});
