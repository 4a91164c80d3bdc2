import { badgeDecider } from '../../../domain/badge/decide.ts';
import type { LogPosition } from '../../../domain/shared/event-store.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { executeCommand } from '../execute-command.ts';
import { streams } from '../../../domain/shared/streams.ts';

/** POST /me/badges/{id}/celebrate: the celebration pop-up was closed (§4); celebrating twice is refused. */
export async function celebrateBadge(
  context: UserCommandContext,
  badgeType: string,
): Promise<{ position: LogPosition | null }> {
  const result = await executeCommand(
    context.store,
    badgeDecider,
    streams.badges(context.userId),
    { type: 'CelebrateBadge', userId: context.userId, badgeType, now: instantOf(context) },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
