import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type DomainError, defineDecider } from '../shared/decider.ts';
import { isoMillis } from '../shared/instant.ts';
import type { ReactionCommand } from './commands.ts';
import { ReactionEmoji, ReactionEvent } from './events.ts';
import { reactionErrors } from './messages.ts';
import { evolveReaction, initialReactionState, type ReactionState } from './state.ts';

/*
 * REACTIONS (§3 feed event reactions, §6 only your own).
 *
 * Each feed card has its own reaction stream, so reacting never contends with anything but the same card. A user
 * may give each of the three kinds once (a second fire from the same person would inflate the count the card
 * shows), other users the same kind, and only the author takes a reaction back. The kind comes from a parsed
 * request, but the decider checks it itself rather than trust the route.
 */

type Decision = Either<DomainError, readonly ReactionEvent[]>;

const has = (state: ReactionState, userId: string, emoji: ReactionEmoji) =>
  state.byUser.get(userId)?.has(emoji) ?? false;

/** Decides a reaction command: one of each kind per user per feed event; only the author removes theirs. */
export function decideReaction(command: ReactionCommand, state: ReactionState): Decision {
  const parsed = ReactionEmoji.safeParse(command.emoji);
  if (!parsed.success) return left(reactionErrors.unknownKind());
  const emoji = parsed.data;
  const data = { feedEventId: command.feedEventId, userId: command.userId, emoji, at: isoMillis(command.now) };
  switch (command.type) {
    case 'AddReaction':
      if (has(state, command.userId, emoji)) return left(reactionErrors.alreadyReacted());
      return right([{ type: 'ReactionAdded', data }]);
    case 'RemoveReaction':
      if (command.actorId !== command.userId) return left(reactionErrors.notYours());
      if (!has(state, command.userId, emoji)) return left(reactionErrors.notFound());
      return right([{ type: 'ReactionRemoved', data }]);
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** The reactions of one feed event (stream `feed-reactions-<feedEventId>`). */
export const reactionDecider = defineDecider<ReactionCommand, ReactionEvent, ReactionState>({
  initialState: initialReactionState,
  evolve: evolveReaction,
  decide: decideReaction,
  eventSchema: ReactionEvent,
});
