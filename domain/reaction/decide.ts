import { type Either, left, right } from 'fp-ts/lib/Either.js';
import { type Decider, type DomainError, domainError } from '../shared/decider.ts';
import type { ReactionCommand } from './commands.ts';
import { ReactionEmoji, type ReactionEvent } from './events.ts';
import { initialReactionState, type ReactionState } from './state.ts';

type Result = Either<DomainError, readonly ReactionEvent[]>;

const has = (state: ReactionState, userId: string, emoji: ReactionEmoji) =>
  state.byUser.get(userId)?.has(emoji) ?? false;

/** Decides a reaction command: one of each kind per user per feed event; only the author removes theirs. */
export function decideReaction(command: ReactionCommand, state: ReactionState): Result {
  // Commands come from parsed HTTP bodies, but the decider guards its own invariant rather than trust the route.
  const parsed = ReactionEmoji.safeParse(command.emoji);
  if (!parsed.success)
    return left(domainError('invalid', 'unknown_reaction', 'Reaction must be thumbs_up, clap or fire'));
  const emoji = parsed.data;
  switch (command.type) {
    case 'AddReaction': {
      if (has(state, command.userId, emoji)) {
        return left(domainError('conflict', 'already_reacted', 'You have already reacted with this emoji'));
      }
      const data = { feedEventId: command.feedEventId, userId: command.userId, emoji, at: command.now };
      return right([{ type: 'ReactionAdded', data }]);
    }
    case 'RemoveReaction': {
      if (command.actorId !== command.userId) {
        return left(domainError('forbidden', 'not_your_reaction', 'You can only remove your own reactions'));
      }
      if (!has(state, command.userId, emoji))
        return left(domainError('not_found', 'reaction_not_found', 'Reaction not found'));
      const data = { feedEventId: command.feedEventId, userId: command.userId, emoji, at: command.now };
      return right([{ type: 'ReactionRemoved', data }]);
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/** Applies one reaction event. */
export function evolveReaction(state: ReactionState, event: ReactionEvent): ReactionState {
  const byUser = new Map(state.byUser);
  const kinds = new Set(byUser.get(event.data.userId));
  switch (event.type) {
    case 'ReactionAdded':
      kinds.add(event.data.emoji);
      break;
    case 'ReactionRemoved':
      kinds.delete(event.data.emoji);
      break;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
  if (kinds.size === 0) byUser.delete(event.data.userId);
  else byUser.set(event.data.userId, kinds);
  return { byUser };
}

/** The reactions of one feed event (stream `reactions-<feedEventId>`). */
export const reactionDecider: Decider<ReactionCommand, ReactionEvent, ReactionState> = {
  initialState: initialReactionState,
  evolve: evolveReaction,
  decide: decideReaction,
};
