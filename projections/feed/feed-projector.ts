import { sql, type Transaction } from 'kysely';
import type { BadgeEvent } from '../../domain/badge/events.ts';
import type { GoalCreated } from '../../domain/goal/events.ts';
import type { GroupEvent } from '../../domain/group/events.ts';
import type { ReactionEvent } from '../../domain/reaction/events.ts';
import type { RunEvent } from '../../domain/run/events.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';
import type { RunXpAwarded } from '../../domain/xp/events.ts';
import type { Projector, TableNames } from '../engine/projector.ts';
import { type CardRow, FeedBatch, type FeedKeys } from './feed-batch.ts';
import { badgeEarnedData, feedIds, runCompletedData, stakeCreatedData } from './feed-rows.ts';
import { createFeedTables, type FeedEventData, type FeedTable } from './feed-tables.ts';

type Tables = TableNames<FeedTable>;
type Relevant = RunEvent | RunXpAwarded | StakeEvent | BadgeEvent | GoalCreated | GroupEvent | ReactionEvent;

/** Who must hear about a batch: authors whose feed changed, authors whose cards got reactions, reactors, groups. */
interface Changes {
  readonly feedAuthors: Set<string>;
  readonly reactionAuthors: Set<string>;
  readonly reactors: Set<string>;
  readonly groups: Set<string>;
}

/**
 * The activity feed (§3 Feed event) and its reactions. Every card belongs to its author and has no group
 * (group_id null): a group's feed is its current members' cards, so joining shows a member's activity and leaving
 * takes it away, without copying rows per group. Deterministic: ids and times come from the events.
 */
export const feedProjector: Projector<FeedTable> = {
  name: 'feed',
  // 2: the feed index holds only visible cards, with their kind and id (feed-tables.ts).
  version: 2,
  eventTypes: [
    'RunRecorded',
    'RunXpAwarded',
    'RunDeleted',
    'GoalCreated',
    'StakeOpened',
    'StakeReleased',
    'StakeCollected',
    'BadgeEarned',
    'ReactionAdded',
    'ReactionRemoved',
    'GroupCreated',
    'MemberJoined',
    'MemberLeft',
  ] satisfies Relevant['type'][],
  tables: ['feed_events', 'reactions', 'feed_goal_types', 'feed_group_members'],
  createTables: createFeedTables,

  async apply(events, { tx, tables, announce }) {
    const changes: Changes = {
      feedAuthors: new Set(),
      reactionAuthors: new Set(),
      reactors: new Set(),
      groups: new Set(),
    };
    const batch = await FeedBatch.load(tx, tables, keysOf(events));
    for (const recorded of events) applyOne(batch, recorded, changes);
    await batch.write(tx, tables);
    await announceChanges(tx, tables, changes, announce);
  },
};

/** Every row the events may read or write, so the batch reads them all in one statement per table. */
function keysOf(events: readonly RecordedEvent[]): FeedKeys {
  const keys: FeedKeys = { cards: new Set(), reactionsOf: new Set(), goalTypes: new Set(), groups: new Set() };
  for (const recorded of events) {
    const event = { type: recorded.type, data: recorded.data } as Relevant;
    switch (event.type) {
      case 'RunRecorded':
      case 'RunXpAwarded':
        keys.cards.add(feedIds.run(event.data.runId));
        break;
      case 'RunDeleted':
        keys.cards.add(feedIds.run(event.data.runId));
        keys.reactionsOf.add(feedIds.run(event.data.runId));
        break;
      case 'GoalCreated':
        keys.goalTypes.add(event.data.goalId);
        break;
      case 'StakeOpened':
        keys.goalTypes.add(event.data.goalId);
        keys.cards.add(feedIds.stakeCreated(event.data.stakeId));
        break;
      case 'StakeReleased':
      case 'StakeCollected':
        keys.cards.add(feedIds.stakeCreated(event.data.stakeId));
        keys.cards.add(feedIds.stakeSettled(event.data.stakeId));
        break;
      case 'BadgeEarned':
        keys.cards.add(feedIds.badge(event.data.badgeId));
        break;
      case 'ReactionAdded':
      case 'ReactionRemoved':
        keys.cards.add(event.data.feedEventId);
        keys.reactionsOf.add(event.data.feedEventId);
        break;
      case 'GroupCreated':
      case 'MemberJoined':
      case 'MemberLeft':
        keys.groups.add(event.data.groupId);
        break;
      default:
        break;
    }
  }
  return keys;
}

function card(
  recorded: RecordedEvent,
  card: { id: string; userId: string; type: string; data: FeedEventData; visible?: boolean },
): CardRow {
  return {
    id: card.id,
    user_id: card.userId,
    group_id: null,
    event_type: card.type,
    event_data: card.data,
    is_visible: card.visible ?? true,
    created_at: new Date(recorded.metadata.occurredAt).toISOString(),
    global_position: recorded.globalPosition,
  };
}

function applyOne(batch: FeedBatch, recorded: RecordedEvent, changes: Changes): void {
  const event = { type: recorded.type, data: recorded.data } as Relevant;
  switch (event.type) {
    case 'RunRecorded': {
      const d = event.data;
      // A rejected run (vehicle, teleport) is kept for its owner's history but not celebrated in the feed.
      const visible = d.verification.verdict !== 'rejected';
      batch.insertCard(
        card(recorded, {
          id: feedIds.run(d.runId),
          userId: d.userId,
          type: 'run_completed',
          data: runCompletedData(d),
          visible,
        }),
      );
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'RunXpAwarded': {
      const d = event.data;
      batch.mergeIntoCard(feedIds.run(d.runId), { xp_earned: d.xpAmount, surge_bonus: d.surgeBonus });
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'RunDeleted':
      batch.deleteCard(feedIds.run(event.data.runId));
      changes.feedAuthors.add(event.data.userId);
      return;
    case 'GoalCreated':
      batch.rememberGoalType(event.data.goalId, event.data.type);
      return;
    case 'StakeOpened': {
      const d = event.data;
      batch.insertCard(
        card(recorded, {
          id: feedIds.stakeCreated(d.stakeId),
          userId: d.userId,
          type: 'stake_created',
          data: stakeCreatedData(d, batch.goalType(d.goalId)),
        }),
      );
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'StakeReleased':
      // Only a met goal is news; a stake voided before anything was at risk ('refunded') gets no card.
      if (event.data.outcome === 'succeeded') settled(batch, recorded, event.data.stakeId, true, 0, changes);
      return;
    case 'StakeCollected':
      settled(batch, recorded, event.data.stakeId, false, event.data.donationCents, changes);
      return;
    case 'BadgeEarned': {
      const d = event.data;
      batch.insertCard(
        card(recorded, {
          id: feedIds.badge(d.badgeId),
          userId: d.userId,
          type: 'badge_earned',
          data: badgeEarnedData(d),
        }),
      );
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'ReactionAdded':
    case 'ReactionRemoved': {
      const d = event.data;
      if (event.type === 'ReactionAdded') {
        batch.addReaction({ feed_event_id: d.feedEventId, user_id: d.userId, emoji: d.emoji, created_at: d.at });
      } else {
        batch.removeReaction(d.feedEventId, d.userId, d.emoji);
      }
      changes.reactors.add(d.userId);
      const author = batch.card(d.feedEventId)?.user_id;
      if (author) changes.reactionAuthors.add(author);
      return;
    }
    case 'GroupCreated':
      batch.addMember(event.data.groupId, event.data.ownerId);
      changes.groups.add(event.data.groupId);
      return;
    case 'MemberJoined':
      batch.addMember(event.data.groupId, event.data.userId);
      changes.groups.add(event.data.groupId);
      return;
    case 'MemberLeft':
      changes.groups.add(event.data.groupId);
      changes.feedAuthors.add(event.data.userId);
      batch.removeMember(event.data.groupId, event.data.userId);
      return;
    default:
      return;
  }
}

/** A settled stake's card, carrying the charity chosen when it was opened (its name is looked up when read). */
function settled(
  batch: FeedBatch,
  recorded: RecordedEvent,
  stakeId: string,
  success: boolean,
  donation: number,
  changes: Changes,
): void {
  const opened = batch.card(feedIds.stakeCreated(stakeId));
  if (!opened) return;
  const charityId = opened.event_data.charity_id ?? null;
  const data: FeedEventData = {
    success,
    goal_type: opened.event_data.goal_type,
    has_charity: charityId !== null,
    charity_id: charityId,
    donation_amount: donation,
  };
  batch.insertCard(
    card(recorded, { id: feedIds.stakeSettled(stakeId), userId: opened.user_id, type: 'stake_settled', data }),
  );
  changes.feedAuthors.add(opened.user_id);
}

/** Announces to each author and everyone who shares a group with them: those are the feeds the card shows in. */
async function announceChanges(
  tx: Transaction<object>,
  t: Tables,
  changes: Changes,
  announce: (userId: string, topic: 'feed' | 'reactions') => void,
) {
  const audience = async (authors: Set<string>) => {
    if (authors.size === 0) return [];
    const { rows } = await sql<{ user_id: string }>`
      SELECT DISTINCT o.user_id FROM ${sql.table(t.feed_group_members)} me
      JOIN ${sql.table(t.feed_group_members)} o ON o.group_id = me.group_id
      WHERE me.user_id = ANY(${[...authors]}::text[])`.execute(tx);
    return [...authors, ...rows.map((r) => r.user_id)];
  };
  for (const userId of await audience(changes.feedAuthors)) announce(userId, 'feed');
  for (const userId of [...(await audience(changes.reactionAuthors)), ...changes.reactors])
    announce(userId, 'reactions');
  if (changes.groups.size > 0) {
    const { rows } = await sql<{ user_id: string }>`
      SELECT DISTINCT user_id FROM ${sql.table(t.feed_group_members)} WHERE group_id = ANY(${[...changes.groups]}::text[])`.execute(
      tx,
    );
    for (const row of rows) announce(row.user_id, 'feed');
  }
}
