import type { PauseReason } from '../../../domain/goal/pause-horizon.ts';
import { userGoalsDecider } from '../../../domain/goal/user-goals.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { executeCommand } from '../execute-command.ts';

/**
 * Pauses a week of the signed-in runner (issue 25) on their goal index, where the one-goal-a-week rule lives, so a
 * pause and a goal for the same week cannot both be written (domain/goal/week-pauses.ts). A pause already there is
 * no change: `position` is null, and the caller answers with the pause as it stands.
 */
export async function pauseWeek(
  context: UserCommandContext,
  week: { weekStart: string; reason: PauseReason },
  timeZone: string,
): Promise<{ position: LogPosition | null }> {
  const result = await executeCommand(
    context.store,
    userGoalsDecider,
    streams.userGoals(context.userId),
    { type: 'PauseWeek', userId: context.userId, timeZone, now: instantOf(context), ...week },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}

/** Cancels one of the signed-in runner's pauses before its week begins; another user's week is simply not found. */
export async function cancelWeekPause(
  context: UserCommandContext,
  weekStart: string,
): Promise<{ position: LogPosition | null }> {
  const result = await executeCommand(
    context.store,
    userGoalsDecider,
    streams.userGoals(context.userId),
    { type: 'CancelWeekPause', userId: context.userId, weekStart, now: instantOf(context) },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
