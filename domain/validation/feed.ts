import { z } from 'zod';

/** Reaction kinds (§9). */
export const reactionEmojiSchema = z.enum(['thumbs_up', 'clap', 'fire'], { error: 'Unknown reaction' });

/** Body of adding a reaction. */
export const reactionBodySchema = z.object({ feed_event_id: z.string().min(1), emoji: reactionEmojiSchema });

/** Feed filters (§2, §9); absent means all. */
export const feedFilterSchema = z.enum(['all', 'runs', 'stakes', 'badges']).default('all');
