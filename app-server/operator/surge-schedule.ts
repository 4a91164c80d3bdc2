import { randomUUID } from 'node:crypto';
import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { streams } from '../../domain/shared/streams.ts';
import type { SurgeCommand } from '../../domain/surge/commands.ts';
import { surgeDecider } from '../../domain/surge/decide.ts';
import type { SurgeEvent } from '../../domain/surge/events.ts';
import { type Surge, surgeStatusAt } from '../../domain/surge/state.ts';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import { executeCommand } from '../commands/execute-command.ts';
import type { Runtime } from '../runtime.ts';

/**
 * The operator's surge schedule, one implementation for both ways in: `npm run surge` on the database itself, and the
 * operator routes of a running server (http/routes/operator-surges.ts) that the same command uses while `npm start`
 * holds the embedded database.
 */

/** How long a surge may last, in hours. */
export const MAX_SURGE_HOURS = 72;

/** A surge to schedule: its multiplier, its start (an ISO instant) and how many hours it lasts. */
export const scheduleSurgeBody = z.strictObject({
  multiplier: z
    .number({ message: 'multiplier: must be a number' })
    .gt(1, { message: 'multiplier: must be greater than 1' }),
  start: z.iso.datetime({ offset: true, message: 'start: must be an ISO instant such as 2026-11-28T09:00:00Z' }),
  hours: z
    .number({ message: 'hours: must be a number' })
    .positive({ message: 'hours: must be more than 0' })
    .max(MAX_SURGE_HOURS, { message: `hours: must be at most ${MAX_SURGE_HOURS}` }),
});
export type ScheduleSurgeInput = z.infer<typeof scheduleSurgeBody>;

/** The ScheduleSurge command for `input` at `now`, under a new id. */
export function scheduleCommand(input: ScheduleSurgeInput, now: Date): SurgeCommand {
  const startsAt = Temporal.Instant.from(input.start);
  return {
    type: 'ScheduleSurge',
    surgeId: randomUUID(),
    xpMultiplier: input.multiplier,
    startsAt: startsAt.toString(),
    endsAt: startsAt.add({ milliseconds: Math.round(input.hours * 3_600_000) }).toString(),
    now: Temporal.Instant.fromEpochMilliseconds(now.getTime()),
  };
}

/** The CancelSurge command for `surgeId` at `now`. */
export function cancelCommand(surgeId: string, now: Date): SurgeCommand {
  return { type: 'CancelSurge', surgeId, now: Temporal.Instant.fromEpochMilliseconds(now.getTime()) };
}

/** Decides and appends a surge command as the operator; a refusal is thrown as DomainRefusal (overlap, past…). */
export async function runSurgeCommand(
  store: Runtime['store'],
  command: SurgeCommand,
  now: Date,
): Promise<{ events: readonly SurgeEvent[]; position: LogPosition | null }> {
  const result = await executeCommand(store, surgeDecider, streams.surgeSchedule(), command, {
    actorId: 'system:operator',
    correlationId: randomUUID(),
    now,
    newEventId: () => randomUUID(),
  });
  return { events: result.events as readonly SurgeEvent[], position: result.append?.position ?? null };
}

/** Every surge of the schedule, folded from its stream (canceled and ended ones too), in the order scheduled. */
export async function readSurgeSchedule(store: Runtime['store']): Promise<Surge[]> {
  const events = await store.readStream(streams.surgeSchedule());
  const state = events.reduce(
    (s, e) => surgeDecider.evolve(s, { type: e.type, data: e.data } as SurgeEvent),
    surgeDecider.initialState,
  );
  return [...state.surges.values()];
}

/** A surge as the operator routes answer it (the public routes' shape, GET /surge/*, without the countdown). */
export function operatorSurgeJson(surge: Surge, now: string) {
  return {
    id: surge.surgeId,
    status: surgeStatusAt(surge, now),
    xp_multiplier: surge.xpMultiplier,
    start_time: surge.startsAt,
    end_time: surge.endsAt,
  };
}
export type OperatorSurge = ReturnType<typeof operatorSurgeJson>;

/** One line of `npm run surge -- list`, whichever way it was read. */
export function surgeLine(s: OperatorSurge): string {
  return `${s.id}  ${s.status.padEnd(9)}  ${s.xp_multiplier}x  ${s.start_time} → ${s.end_time}`;
}
