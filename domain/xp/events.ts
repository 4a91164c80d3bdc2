import { z } from 'zod';
import { entityId, isoDate, isoInstant } from '../shared/event-schema.ts';

const xp = z.number().int();
const weekResult = z.enum(['completed', 'missed']);

/** A run earned XP; carries the run facts the badge rules need (distance counted for XP, local start). */
export const RunXpAwarded = z.object({
  type: z.literal('RunXpAwarded'),
  data: z.object({
    userId: entityId,
    runId: entityId,
    /** km counted for XP (the verification policy's trusted distance). */
    distanceKm: z.number().nonnegative(),
    startedAt: isoInstant,
    /** Start on the user's wall clock when the run was recorded ('YYYY-MM-DDTHH:mm:ss'). */
    localStart: z.iso.datetime({ local: true }),
    /** 1 outside a surge. */
    xpMultiplier: z.number().positive(),
    /** The run's claimed end and track fingerprint, when its verdict has them (see AwardRunXp). */
    endedAt: isoInstant.optional(),
    trackKey: z.string().nullable().optional(),
    baseXp: xp,
    surgeBonus: xp,
    xpAmount: xp,
    description: z.string(),
    awardedAt: isoInstant,
  }),
});
/** A run earned XP. */
export type RunXpAwarded = z.infer<typeof RunXpAwarded>;

/** A deleted run's XP was taken back (negative amount). */
export const RunXpRevoked = z.object({
  type: z.literal('RunXpRevoked'),
  data: z.object({
    userId: entityId,
    runId: entityId,
    xpAmount: xp,
    description: z.string(),
    revokedAt: isoInstant,
  }),
});
/** A deleted run's XP was taken back. */
export type RunXpRevoked = z.infer<typeof RunXpRevoked>;

/** A goal's week was settled for the streak; the streak as it stands afterwards. */
export const WeekSettled = z.object({
  type: z.literal('WeekSettled'),
  data: z.object({
    userId: entityId,
    goalId: entityId,
    weekStart: isoDate,
    result: weekResult,
    currentStreak: z.number().int().nonnegative(),
    longestStreak: z.number().int().nonnegative(),
    lastCompletedWeek: isoDate.nullable(),
    settledAt: isoInstant,
  }),
});
/** A goal's week was settled for the streak. */
export type WeekSettled = z.infer<typeof WeekSettled>;

/** XP for a completed goal, a streak week or a badge. */
export const XpAwarded = z.object({
  type: z.literal('XpAwarded'),
  data: z.object({
    userId: entityId,
    sourceType: z.enum(['goal', 'streak', 'badge']),
    sourceId: entityId,
    xpAmount: xp,
    description: z.string(),
    awardedAt: isoInstant,
  }),
});
/** XP for a completed goal, a streak week or a badge. */
export type XpAwarded = z.infer<typeof XpAwarded>;

/** Every event of a user's XP ledger (stream `xp-<userId>`): the ledger decider's schema. */
export const XpLedgerEvent = z.discriminatedUnion('type', [RunXpAwarded, RunXpRevoked, WeekSettled, XpAwarded]);
/** Every event of a user's XP ledger. */
export type XpLedgerEvent = z.infer<typeof XpLedgerEvent>;
