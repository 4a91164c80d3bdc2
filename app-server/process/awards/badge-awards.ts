import { loadXpLedgers } from './xp-ledger-load.ts';
import type { XpLedgerState } from '../../../domain/xp/state.ts';
import type { Transaction } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { badgeDecider } from '../../../domain/badge/decide.ts';
import { badgesNewlyEarned } from '../../../domain/gamification/badge-criteria.ts';
import type { EventStore, RecordedEvent } from '../../../domain/shared/event-store.ts';
import { badgeFactsOf } from '../../../domain/xp/state.ts';
import { executeCommand } from '../../commands/execute-command.ts';
import { inParallel, TICK_CONCURRENCY } from '../in-parallel.ts';
import type { ProcessManager } from '../process-manager.ts';
import { deterministicUuid } from '../../commands/deterministic-uuid.ts';
import type { BadgeState } from '../../../domain/badge/state.ts';
import { DecisionBatch } from '../../commands/decision-batch.ts';
import { processMetadata } from '../../commands/event-metadata.ts';
import { streams } from '../../../domain/shared/streams.ts';

const NAME = 'badge-awards';

/** Ledger events that add badge facts (a run paid, a week settled). */
const FACT_EVENTS = new Set(['RunXpAwarded', 'WeekSettled']);

async function awardDue(
  store: EventStore<Transaction<object>>,
  tx: Transaction<object>,
  cause: RecordedEvent,
  userId: string,
  now: Date,
  badges: BadgeState,
  ledger: XpLedgerState,
) {
  for (const badgeType of badgesNewlyEarned(badgeFactsOf(ledger), badges.badges.keys())) {
    await executeCommand(
      store,
      badgeDecider,
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
      { transaction: tx },
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
    // Every judged user's badges in one query. Badges are earned only here, by the user's own lane below (after this
    // read); a celebration written meanwhile earns none, and AwardBadge decides on a fresh read of the stream anyway.
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
    // One user per lane, users side by side (each writes only its own badge stream): the round trips overlap.
    await inParallel([...lastCauseByUser], TICK_CONCURRENCY, async ([userId, cause]) =>
      awardDue(
        store,
        tx,
        cause,
        userId,
        now,
        await badgeStates.state(streams.badges(userId)),
        ledgers.get(streams.xpLedger(userId))!.state,
      ),
    );
  },
};
