import type { ReactionEmoji, ReactionEvent } from './events.ts';

/**
 * The reactions on one feed event, by user. A feed event's reactions have no lifecycle of their own (no status to
 * switch on), so the state is a single shape rather than a union.
 */
export interface ReactionState {
  readonly byUser: ReadonlyMap<string, ReadonlySet<ReactionEmoji>>;
}

/** The state of a reaction stream with no events. */
export const initialReactionState: ReactionState = { byUser: new Map() };

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
