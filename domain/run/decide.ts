import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { Temporal } from 'temporal-polyfill';
import type { Decider, DomainError } from '../shared/decider.ts';
import { round2 } from '../shared/units.ts';
import type { ImportRun, LogGpsRun, RunCommand } from './commands.ts';
import type { RunEvent } from './events.ts';
import { type GpsPosition, gpsDistanceKm } from './geo.ts';
import { MAX_NOTES_LENGTH, runErrors } from './messages.ts';
import { evolveRun, initialRunState, type RunState } from './state.ts';
import { verifyRun } from './verification.ts';

type Decision = Either<DomainError, readonly RunEvent[]>;

/** The shortest run that is saved (§4, §9). */
export const MIN_RUN_SECONDS = 60;
/** The fewest GPS positions a tracked run needs (§4, §9). */
export const MIN_RUN_POSITIONS = 2;
/** Tolerated clock difference between a device and the server. */
const CLOCK_SKEW = { minutes: 5 } as const;

const validPosition = (p: GpsPosition) =>
  Number.isFinite(p.latitude) &&
  Math.abs(p.latitude) <= 90 &&
  Number.isFinite(p.longitude) &&
  Math.abs(p.longitude) <= 180 &&
  Number.isFinite(p.timestamp) &&
  (p.accuracy === undefined || p.accuracy === null || (Number.isFinite(p.accuracy) && p.accuracy >= 0));

/** Refusals common to both ways of recording. */
function commonProblem(command: LogGpsRun | ImportRun): DomainError | null {
  if (!command.positions.every(validPosition)) return runErrors.invalidPosition();
  if (Temporal.Instant.compare(command.startedAt, command.now.add(CLOCK_SKEW)) > 0) return runErrors.inFuture();
  if (command.notes !== null && command.notes.length > MAX_NOTES_LENGTH) return runErrors.notesTooLong();
  return null;
}

function logGps(command: LogGpsRun, state: RunState): Decision {
  if (state.status !== 'none') return left(runErrors.exists());
  if (!(command.durationSec >= MIN_RUN_SECONDS) || command.positions.length < MIN_RUN_POSITIONS) {
    return left(runErrors.tooShort());
  }
  const problem = commonProblem(command);
  if (problem !== null) return left(problem);
  const distanceKm = gpsDistanceKm(command.positions);
  const durationSec = Math.round(command.durationSec);
  const evidence = { distanceKm, durationSec, positions: command.positions, importFlags: null };
  return right([
    {
      type: 'RunRecorded',
      data: {
        runId: command.runId,
        userId: command.userId,
        source: 'gps',
        importId: null,
        startedAt: command.startedAt.toString(),
        ...evidence,
        notes: command.notes,
        verification: verifyRun(evidence),
        recordedAt: command.now.toString(),
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
  const evidence = {
    distanceKm: round2(command.distanceKm),
    durationSec: Math.round(command.durationSec),
    positions: command.positions,
    importFlags: command.flags,
  };
  return right([
    {
      type: 'RunRecorded',
      data: {
        runId: command.runId,
        userId: command.userId,
        source: command.source,
        importId: command.importId,
        startedAt: command.startedAt.toString(),
        ...evidence,
        notes: command.notes,
        verification: verifyRun(evidence),
        recordedAt: command.now.toString(),
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
          { type: 'RunDeleted', data: { runId, userId: command.userId, deletedAt: command.now.toString() } },
        ]);
      }
      if (command.notes !== null && command.notes.length > MAX_NOTES_LENGTH) return left(runErrors.notesTooLong());
      if (command.notes === state.run.notes) return right([]);
      return right([
        {
          type: 'RunNotesEdited',
          data: { runId, userId: state.run.userId, notes: command.notes, editedAt: command.now.toString() },
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
export const runDecider: Decider<RunCommand, RunEvent, RunState> = {
  initialState: initialRunState,
  evolve: evolveRun,
  decide: decideRun,
};
