import type { BadgeEvent } from '../../domain/badge/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { XpLedgerEvent } from '../../domain/xp/events.ts';
import type { ChangeTopic } from '../engine/projector.ts';

/** The rows and changes one batch contributes, folded in memory so each table takes one statement per batch. */
export interface GamificationBatch {
  readonly history: Record<string, unknown>[];
  /** XP gained per user in the batch (users registered in it start at 0). */
  readonly xpDelta: Map<string, { delta: number; at: string }>;
  /** The last streak per user in the batch. */
  readonly streaks: Map<string, Record<string, unknown>>;
  readonly earned: Map<string, Record<string, unknown>>;
  readonly celebrated: Map<string, { user_id: string; badge_type: string; celebrated_at: string }>;
  readonly announcements: Array<[string, ChangeTopic]>;
}

type Relevant = XpLedgerEvent | BadgeEvent | { type: 'UserRegistered'; data: { userId: string; registeredAt: string } };

function addXp(batch: GamificationBatch, userId: string, delta: number, at: string): void {
  const current = batch.xpDelta.get(userId);
  batch.xpDelta.set(userId, { delta: (current?.delta ?? 0) + delta, at });
}

/** Folds a batch of events into pending rows; events of other kinds are ignored. */
export function foldBatch(events: readonly RecordedEvent[]): GamificationBatch {
  const batch: GamificationBatch = {
    history: [],
    xpDelta: new Map(),
    streaks: new Map(),
    earned: new Map(),
    celebrated: new Map(),
    announcements: [],
  };
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as Relevant;
    const history = (row: Record<string, unknown>) =>
      batch.history.push({ id: recorded.metadata.eventId, global_position: recorded.globalPosition, ...row });
    // An XP entry without a surge (goal, streak, badge, or a revoked run's correction): base = total, multiplier 1.
    const award = (
      userId: string,
      sourceType: string,
      sourceId: string,
      xp: number,
      description: string,
      at: string,
    ) => {
      history({
        user_id: userId,
        source_type: sourceType,
        source_id: sourceId,
        xp_amount: xp,
        base_xp: xp,
        surge_bonus: 0,
        xp_multiplier: 1,
        description,
        created_at: at,
      });
      addXp(batch, userId, xp, at);
      batch.announcements.push([userId, 'xp']);
    };
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, registeredAt } = event.data;
        addXp(batch, userId, 0, registeredAt);
        // §7: a new user starts with a zero streak row.
        if (!batch.streaks.has(userId)) {
          batch.streaks.set(userId, {
            user_id: userId,
            current_streak: 0,
            longest_streak: 0,
            last_completed_week: null,
            updated_at: registeredAt,
            initial: true,
          });
        }
        break;
      }
      case 'RunXpAwarded': {
        const d = event.data;
        history({
          user_id: d.userId,
          source_type: 'run',
          source_id: d.runId,
          xp_amount: d.xpAmount,
          base_xp: d.baseXp,
          surge_bonus: d.surgeBonus,
          xp_multiplier: d.xpMultiplier,
          description: d.description,
          created_at: d.awardedAt,
        });
        addXp(batch, d.userId, d.xpAmount, d.awardedAt);
        batch.announcements.push([d.userId, 'xp']);
        break;
      }
      case 'RunXpRevoked': {
        const d = event.data;
        award(d.userId, 'run', d.runId, d.xpAmount, d.description, d.revokedAt);
        break;
      }
      case 'XpAwarded': {
        const d = event.data;
        award(d.userId, d.sourceType, d.sourceId, d.xpAmount, d.description, d.awardedAt);
        break;
      }
      case 'WeekSettled': {
        const d = event.data;
        batch.streaks.set(d.userId, {
          user_id: d.userId,
          current_streak: d.currentStreak,
          longest_streak: d.longestStreak,
          last_completed_week: d.lastCompletedWeek,
          updated_at: d.settledAt,
          initial: false,
        });
        batch.announcements.push([d.userId, 'streak']);
        break;
      }
      case 'BadgeEarned': {
        const d = event.data;
        batch.earned.set(`${d.userId}:${d.badgeType}`, {
          id: d.badgeId,
          user_id: d.userId,
          badge_type: d.badgeType,
          earned_at: d.earnedAt,
          celebrated_at: null,
        });
        batch.announcements.push([d.userId, 'badges']);
        break;
      }
      case 'BadgeCelebrated': {
        const d = event.data;
        const key = `${d.userId}:${d.badgeType}`;
        const earned = batch.earned.get(key);
        if (earned) earned.celebrated_at = d.celebratedAt;
        else batch.celebrated.set(key, { user_id: d.userId, badge_type: d.badgeType, celebrated_at: d.celebratedAt });
        batch.announcements.push([d.userId, 'badges']);
        break;
      }
      default:
        break;
    }
  }
  return batch;
}
