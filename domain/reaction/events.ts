import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';

/** The three reaction kinds of §9. */
export const ReactionEmoji = z.enum(['thumbs_up', 'clap', 'fire']);
/** The three reaction kinds of §9. */
export type ReactionEmoji = z.infer<typeof ReactionEmoji>;

const data = z.object({ feedEventId: entityId, userId: entityId, emoji: ReactionEmoji, at: isoInstant });

/** A user reacted to a feed event. */
export const ReactionAdded = z.object({ type: z.literal('ReactionAdded'), data });
/** A user reacted to a feed event. */
export type ReactionAdded = z.infer<typeof ReactionAdded>;

/** A user took their own reaction back. */
export const ReactionRemoved = z.object({ type: z.literal('ReactionRemoved'), data });
/** A user took their own reaction back. */
export type ReactionRemoved = z.infer<typeof ReactionRemoved>;

/** Every event of a feed event's reaction stream (`feed-reactions-<id>`): the reaction decider's schema. */
export const ReactionEvent = z.discriminatedUnion('type', [ReactionAdded, ReactionRemoved]);
/** Every event of a feed event's reaction stream. */
export type ReactionEvent = z.infer<typeof ReactionEvent>;
