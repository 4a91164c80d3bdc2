/** React to a feed event with one of the three kinds. */
export interface AddReaction {
  readonly type: 'AddReaction';
  readonly feedEventId: string;
  readonly userId: string;
  readonly emoji: string;
  readonly now: string;
}

/** Remove a reaction; `actorId` is who asks, `userId` whose reaction it is (§6: only your own). */
export interface RemoveReaction {
  readonly type: 'RemoveReaction';
  readonly feedEventId: string;
  readonly actorId: string;
  readonly userId: string;
  readonly emoji: string;
  readonly now: string;
}

/** Every command the reaction stream of a feed event accepts. */
export type ReactionCommand = AddReaction | RemoveReaction;
