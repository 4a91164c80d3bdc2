import type { Transaction } from 'kysely';
import { reactionDecider } from '../../../domain/reaction/decide.ts';
import type { ReactionCommand } from '../../../domain/reaction/commands.ts';
import type { ReactionEvent } from '../../../domain/reaction/events.ts';
import type { ReactionState } from '../../../domain/reaction/state.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../command-context.ts';
import { executeCommand, type LoadedAggregate } from '../execute-command.ts';

/*
 * A toggle costs the same on the first and the ten-thousandth.
 *
 * Reactions used to be one stream per feed card (`feed-reactions-<card>`), and every toggle read and folded that
 * whole stream twice (the keyed-request check, then the command): measured, 2,000 toggles on one card ran at ~32/s
 * and slowed everyone sharing the database, because each toggle read every earlier one. Now each user's reaction of
 * one kind on one card has its own stream, whose state is its last event (added or removed): a toggle reads ONE
 * event (backwards, one) and appends with that event's revision as the expected version, so two toggles racing
 * still cannot both win. Reactions stay events; the card's reaction counts are the feed read model's.
 */

/** One user's reaction of one kind on one card. */
export const reactionStream = (feedEventId: string, userId: string, emoji: string) =>
  streams.reaction(feedEventId, userId, emoji);

type Tx = Transaction<object>;

/**
 * The reaction's state from its stream's last event. A reaction that has no stream of its own yet may have a past in
 * the card's stream from before (no longer written): that stream is read once, for this user and kind, and the next
 * toggle carries its state over into the new stream.
 */
async function loadReaction(
  context: UserCommandContext,
  feedEventId: string,
  emoji: string,
  transaction?: Tx,
): Promise<LoadedAggregate<ReactionState>> {
  const stream = reactionStream(feedEventId, context.userId, emoji);
  const options = transaction ? { transaction } : {};
  const [last] = await context.store.readStream(stream, { ...options, direction: 'backwards', maxCount: 1 });
  const fold = (events: readonly { type: string; data: unknown }[]) =>
    events.reduce(
      (state, e) => reactionDecider.evolve(state, { type: e.type, data: e.data } as ReactionEvent),
      reactionDecider.initialState,
    );
  if (last) return { state: fold([last]), expectedVersion: last.streamRevision };
  const legacy = await context.store.readStream(streams.feedReactions(feedEventId), options);
  const mine = legacy.filter((e) => {
    const data = e.data as { userId?: string; emoji?: string };
    return data.userId === context.userId && data.emoji === emoji;
  });
  return { state: fold(mine), expectedVersion: 'no_stream' };
}

/** Decides and appends on the reaction's own stream, reading one event (see above); in `transaction` when given. */
async function toggle(
  context: UserCommandContext,
  feedEventId: string,
  emoji: string,
  command: ReactionCommand,
  transaction?: Tx,
) {
  const result = await executeCommand(
    context.store,
    reactionDecider,
    reactionStream(feedEventId, context.userId, emoji),
    command,
    userMetadata(context),
    { load: (tx) => loadReaction(context, feedEventId, emoji, tx), ...(transaction ? { transaction } : {}) },
  );
  return { position: result.append?.position ?? null };
}

/**
 * Adds the caller's reaction (one of each kind per card; the route checks the card is visible to them). A second add
 * is refused ('already reacted'); a keyed retry never gets there: it answers the result its first add recorded.
 */
export async function addReaction(context: UserCommandContext, feedEventId: string, emoji: string, tx?: Tx) {
  return toggle(
    context,
    feedEventId,
    emoji,
    { type: 'AddReaction', feedEventId, userId: context.userId, emoji, now: instantOf(context) },
    tx,
  );
}

/** Removes the caller's own reaction: the path names no other user, so only one's own can be removed (§6). */
export async function removeReaction(context: UserCommandContext, feedEventId: string, emoji: string) {
  return toggle(context, feedEventId, emoji, {
    type: 'RemoveReaction',
    feedEventId,
    actorId: context.userId,
    userId: context.userId,
    emoji,
    now: instantOf(context),
  });
}
