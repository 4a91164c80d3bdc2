import type { ReactionEmoji } from './events.ts';

/**
 * The reactions on one feed event, by user. A feed event's reactions have no lifecycle of their own (no status to
 * switch on), so the state is a single shape rather than a union.
 */
export interface ReactionState {
  readonly byUser: ReadonlyMap<string, ReadonlySet<ReactionEmoji>>;
}

/** The state of a reaction stream with no events. */
export const initialReactionState: ReactionState = { byUser: new Map() };

/** The counts and reactors a feed card shows (§3 feed event `reactions`). */
export interface ReactionSummary {
  readonly thumbs_up: number;
  readonly clap: number;
  readonly fire: number;
  readonly reactions: readonly { readonly userId: string; readonly emoji: ReactionEmoji }[];
}

/** Summarises reactions for display, in a stable order (user, then kind). */
export function summariseReactions(state: ReactionState): ReactionSummary {
  const order: readonly ReactionEmoji[] = ['thumbs_up', 'clap', 'fire'];
  const reactions = [...state.byUser.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .flatMap(([userId, kinds]) => order.filter((k) => kinds.has(k)).map((emoji) => ({ userId, emoji })));
  const count = (emoji: ReactionEmoji) => reactions.filter((r) => r.emoji === emoji).length;
  return { thumbs_up: count('thumbs_up'), clap: count('clap'), fire: count('fire'), reactions };
}
