import { z } from 'zod';

// The building blocks of every aggregate's event schemas (events.ts). Event data is JSON: instants and dates travel
// as ISO-8601 strings, so the schema checks their form and the decider keeps them comparable.

/** An instant in event data: ISO-8601 with an offset ('…Z' or '…+02:00'), any sub-second precision. */
export const isoInstant = z.iso.datetime({ offset: true });

/** A calendar date in event data, 'YYYY-MM-DD' (a goal's week start). */
export const isoDate = z.iso.date();

/** An id in event data: any non-empty string (uuids, `strava-<id>`, derived ids). */
export const entityId = z.string().min(1);

/**
 * The `type` names of an event schema: a z.object whose `type` is a literal, or a union of them (an aggregate's
 * events). A processor that folds every event of an aggregate declares them with it, so the list follows the schema.
 */
export function eventTypesOf(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodDiscriminatedUnion || schema instanceof z.ZodUnion)
    return (schema.options as z.ZodType[]).flatMap(eventTypesOf);
  if (schema instanceof z.ZodObject && schema.shape.type instanceof z.ZodLiteral)
    return [...schema.shape.type.values].map(String);
  throw new Error('Not an event schema: expected a z.object with a literal `type`, or a union of them');
}
