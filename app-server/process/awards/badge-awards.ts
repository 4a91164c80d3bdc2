import { loadXpLedgers } from './xp-ledger-load.ts';
import type { XpLedgerState } from '../../../domain/xp/state.ts';
import { Temporal } from 'temporal-polyfill';
import { badgeDecider } from '../../../domain/badge/decide.ts';
import { badgesNewlyEarned } from '../../../domain/gamification/badge-criteria.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import { badgeFactsOf } from '../../../domain/xp/state.ts';
import type { ProcessManager } from '../process-manager.ts';
import { deterministicUuid } from '../../commands/deterministic-uuid.ts';
import type { BadgeState } from '../../../domain/badge/state.ts';
import type { BadgeCommand } from '../../../domain/badge/commands.ts';
import type { BadgeEvent } from '../../../domain/badge/events.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams } from '../../../domain/shared/streams.ts';

const NAME = 'badge-awards';

/** Ledger events that add badge facts (a run paid, a week settled). */
const FACT_EVENTS = new Set(['RunXpAwarded', 'WeekSettled']);

/**
 * Decides the badges `userId`'s ledger has newly earned, in memory (`batch` writes them with everyone else's). A
 * refusal can only be a badge earned already: nothing to do.
 */
async function awardDue(
  batch: DecisionBatch<BadgeCommand, BadgeEvent, BadgeState>,
  cause: RecordedEvent,
  userId: string,
  now: Date,
  ledger: XpLedgerState,
) {
  const badges = await batch.state(streams.badges(userId));
  for (const badgeType of badgesNewlyEarned(badgeFactsOf(ledger), badges.badges.keys())) {
    await batch.decide(
      streams.badges(userId),
      // The id is derived from user and type: a type is earned once, so it is unique and stable across rebuilds.
      {
        type: 'AwardBadge',
        userId,
        badgeId: deterministicUuid('badge', userId, badgeType),
        badgeType,
        now: Temporal.Instant.fromEpochMilliseconds(now.getTime()),
      },
      processMetadata(NAME, now, cause, { derivedIds: badgeType }),
    );
  }
}

/**
 * Awards badges when a user's facts grow: after each batch, every user whose ledger gained a run or a settled week
 * is judged once on their whole ledger (facts only grow, so a badge is never taken back).
 */
export const badgeAwardsProcess: ProcessManager = {
  name: NAME,
  eventTypes: [...FACT_EVENTS],
  async handle(events, { tx, store, now }) {
    const lastCauseByUser = new Map<string, RecordedEvent>();
    for (const event of events) {
      if (!FACT_EVENTS.has(event.type)) continue;
      lastCauseByUser.set((event.data as { userId: string }).userId, event);
    }
    // Every judged user's badges in one query. Badges are earned only here; a celebration written by the API since
    // this read makes the append below fail, and with it the batch, which the process works again from fresh reads.
    // Remembered between batches (stream-state-cache.ts), so each is read from the newest event it remembers on.
    const badgeStates = new DecisionBatch(store, badgeDecider, tx, { rememberStates: true });
    await badgeStates.load([...lastCauseByUser.keys()].map((userId) => streams.badges(userId)));
    // Every judged user's XP ledger in two queries more. Only the XP process writes ledgers, and what it pays after
    // this read reaches this process as events of a later batch, which judges the user again.
    const ledgers = await loadXpLedgers(
      store,
      tx,
      [...lastCauseByUser.keys()].map((userId) => streams.xpLedger(userId)),
    );
    // Decided in memory, user after user, and every new badge appended in one statement: on a busy day a batch
    // earned a badge every few runs, each once its own read and append, one after another.
    for (const [userId, cause] of lastCauseByUser)
      await awardDue(badgeStates, cause, userId, now, ledgers.get(streams.xpLedger(userId))!.state);
    await badgeStates.flush();
  },
};
