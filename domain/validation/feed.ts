import { z } from 'zod';
import { storableString } from './text.ts';

/** Reaction kinds (§9). */
export const reactionEmojiSchema = z.enum(['thumbs_up', 'clap', 'fire'], { error: 'Unknown reaction' });

/** Body of adding a reaction. */
export const reactionBodySchema = z.object({
  feed_event_id: storableString().min(1).max(200),
  emoji: reactionEmojiSchema,
});

/** Feed filters (§2, §9); absent means all. */
export const feedFilterSchema = z.enum(['all', 'runs', 'stakes', 'badges']).default('all');
