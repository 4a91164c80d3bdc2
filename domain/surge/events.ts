import { z } from 'zod';
import { entityId, isoInstant } from '../shared/event-schema.ts';
import { MAX_SURGE_MULTIPLIER } from './policy.ts';

/** A surge was scheduled for [startsAt, endsAt) with an XP multiplier. */
export const SurgeScheduled = z.object({
  type: z.literal('SurgeScheduled'),
  data: z.object({
    surgeId: entityId,
    xpMultiplier: z.number().gt(1).lte(MAX_SURGE_MULTIPLIER),
    startsAt: isoInstant,
    endsAt: isoInstant,
    scheduledAt: isoInstant,
  }),
});
/** A surge was scheduled. */
export type SurgeScheduled = z.infer<typeof SurgeScheduled>;

/** A surge that had not started yet was called off. */
export const SurgeCanceled = z.object({
  type: z.literal('SurgeCanceled'),
  data: z.object({ surgeId: entityId, canceledAt: isoInstant }),
});
/** A surge that had not started yet was called off. */
export type SurgeCanceled = z.infer<typeof SurgeCanceled>;

/** Every event of the surge schedule stream (`surge-schedule`): the surge decider's schema. */
export const SurgeEvent = z.discriminatedUnion('type', [SurgeScheduled, SurgeCanceled]);
/** Every event of the surge schedule stream. */
export type SurgeEvent = z.infer<typeof SurgeEvent>;
