import { z } from 'zod';

/** Distance unit preference (§5): km or mi; anything else, including nothing, becomes km. */
export const distanceUnitSchema = z.enum(['km', 'mi']).catch('km');

/** Body of the distance-unit preference upsert. */
export const distanceUnitPreferenceSchema = z.object({ distance_unit: distanceUnitSchema });
