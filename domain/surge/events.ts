import { z } from 'zod';

const instant = z.iso.datetime({ offset: true });

/** A surge was scheduled for [startsAt, endsAt) with an XP multiplier. */
export const SurgeScheduled = z.object({
  type: z.literal('SurgeScheduled'),
  data: z.object({
    surgeId: z.string().min(1),
    xpMultiplier: z.number().gt(1).lte(5),
    startsAt: instant,
    endsAt: instant,
    scheduledAt: instant,
  }),
});

/** A surge that had not started yet was called off. */
export const SurgeCanceled = z.object({
  type: z.literal('SurgeCanceled'),
  data: z.object({ surgeId: z.string().min(1), canceledAt: instant }),
});

/** Every event of the surge schedule stream. */
export const SurgeEvent = z.discriminatedUnion('type', [SurgeScheduled, SurgeCanceled]);
/** Every event of the surge schedule stream. */
export type SurgeEvent = z.infer<typeof SurgeEvent>;
