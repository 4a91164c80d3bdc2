import { z } from 'zod';

/** The three reaction kinds of §9. */
export const ReactionEmoji = z.enum(['thumbs_up', 'clap', 'fire']);
/** The three reaction kinds of §9. */
export type ReactionEmoji = z.infer<typeof ReactionEmoji>;

const data = z.object({
  feedEventId: z.string().min(1),
  userId: z.string().min(1),
  emoji: ReactionEmoji,
  at: z.iso.datetime({ offset: true }),
});

/** A user reacted to a feed event. */
export const ReactionAdded = z.object({ type: z.literal('ReactionAdded'), data });
/** A user took their own reaction back. */
export const ReactionRemoved = z.object({ type: z.literal('ReactionRemoved'), data });

/** Every event of a feed event's reaction stream. */
export const ReactionEvent = z.discriminatedUnion('type', [ReactionAdded, ReactionRemoved]);
/** Every event of a feed event's reaction stream. */
export type ReactionEvent = z.infer<typeof ReactionEvent>;
