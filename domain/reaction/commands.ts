import type { Temporal } from 'temporal-polyfill';

/** React to a feed event with one of the three kinds. */
export interface AddReaction {
  readonly type: 'AddReaction';
  readonly feedEventId: string;
  readonly userId: string;
  /** Checked by the decider: thumbs_up, clap or fire. */
  readonly emoji: string;
  readonly now: Temporal.Instant;
}

/** Remove a reaction; `actorId` is who asks, `userId` whose reaction it is (§6: only your own). */
export interface RemoveReaction {
  readonly type: 'RemoveReaction';
  readonly feedEventId: string;
  readonly actorId: string;
  readonly userId: string;
  readonly emoji: string;
  readonly now: Temporal.Instant;
}

/** Every command the reaction stream of a feed event accepts. */
export type ReactionCommand = AddReaction | RemoveReaction;
