import { reactionDecider } from '../../../domain/reaction/decide.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { executeCommand } from '../execute-command.ts';
import { oncePerKey } from '../idempotency/once-per-key.ts';
import { streams } from '../../../domain/shared/streams.ts';

/** The reaction stream of one feed card. */
export const reactionStream = (feedEventId: string) => streams.feedReactions(feedEventId);

/** Adds the caller's reaction (one of each kind per card; the route checks the card is visible to them). */
export async function addReaction(context: UserCommandContext, feedEventId: string, emoji: string) {
  return oncePerKey(
    context,
    { appended: reactionStream(feedEventId) },
    async () => {
      const result = await executeCommand(
        context.store,
        reactionDecider,
        reactionStream(feedEventId),
        { type: 'AddReaction', feedEventId, userId: context.userId, emoji, now: instantOf(context) },
        userMetadata(context),
      );
      return { position: result.append?.position ?? null };
    },
    ({ head }) => ({ position: head }),
  );
}

/** Removes the caller's own reaction: the path names no other user, so only one's own can be removed (§6). */
export async function removeReaction(context: UserCommandContext, feedEventId: string, emoji: string) {
  const result = await executeCommand(
    context.store,
    reactionDecider,
    reactionStream(feedEventId),
    {
      type: 'RemoveReaction',
      feedEventId,
      actorId: context.userId,
      userId: context.userId,
      emoji,
      now: instantOf(context),
    },
    userMetadata(context),
  );
  return { position: result.append?.position ?? null };
}
