/** The answers of the documented routes, as zod schemas turned into OpenAPI by openapi-document.ts. */
import { z } from 'zod';

import { BadgeType } from '../../../domain/badge/badge-type.ts';

/** GET /me/streak. */
export const StreakResponse = z.object({
  success: z.literal(true),
  data: z.object({
    user_id: z.string(),
    current_streak: z.number().int(),
    longest_streak: z.number().int(),
    last_completed_week: z.string().nullable(),
  }),
});

/** A row of §3 xp_history. */
export const XpHistoryEntry = z.object({
  source_type: z.enum(['run', 'goal', 'streak', 'badge']),
  source_id: z.string(),
  xp_amount: z.number().int(),
  base_xp: z.number().int(),
  surge_bonus: z.number().int(),
  xp_multiplier: z.number(),
  description: z.string(),
  created_at: z.string(),
});

/** GET /me/xp-history. */
export const XpHistoryResponse = z.object({ success: z.literal(true), data: z.array(XpHistoryEntry) });

/** Total XP, level and tier (GET /me/xp and the extra fields of GET /auth/me). */
export const LevelInfo = z.object({
  total_xp: z.number().int(),
  level: z.number().int(),
  level_label: z.string(),
  tier: z.string(),
  xp_into_level: z.number().int(),
  xp_for_level: z.number().int(),
  xp_to_next_level: z.number().int(),
});

/** GET /me/xp. */
export const LevelResponse = z.object({ success: z.literal(true), data: LevelInfo });

const BadgeIcon = z.enum(['Trophy', 'Flame', 'Target', 'Star', 'Award', 'Calendar', 'Ghost', 'TrendingUp', 'Sunrise']);

/** §3 Badge definition. */
export const BadgeDefinitionSchema = z.object({
  badge_type: BadgeType,
  name: z.string(),
  description: z.string(),
  icon: BadgeIcon,
  color: z.string(),
  criterion: z.string(),
});

/** GET /badges/definitions. */
export const BadgeDefinitionsResponse = z.object({
  success: z.literal(true),
  definitions: z.array(BadgeDefinitionSchema),
});

/** §3 Badge earned, with its definition's display fields. */
export const EarnedBadge = z.object({
  id: z.string(),
  badge_type: BadgeType,
  earned_at: z.string(),
  celebrated_at: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  icon: BadgeIcon,
  color: z.string(),
});

/** GET /me/badges. */
export const BadgesResponse = z.object({ success: z.literal(true), data: z.array(EarnedBadge) });

/** POST /me/badges/{id}/celebrate. */
export const CelebrateResponse = z.object({ success: z.literal(true), data: EarnedBadge });

/** §3 Surge event. */
export const SurgeSchema = z.object({
  id: z.string(),
  status: z.enum(['scheduled', 'active', 'ended', 'canceled']),
  xp_multiplier: z.number(),
  start_time: z.string(),
  end_time: z.string(),
  seconds_remaining: z.number().int(),
});

/** GET /surge/active: the surge in force, or null. */
export const ActiveSurgeResponse = z.object({ success: z.literal(true), data: SurgeSchema.nullable() });

/** GET /surge/upcoming and /surge/history. */
export const SurgeListResponse = z.object({ success: z.literal(true), data: z.array(SurgeSchema) });

/** Every error answer. */
export const ErrorResponse = z.object({ error: z.string() });
