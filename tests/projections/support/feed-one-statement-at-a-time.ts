import { sql, type Transaction } from 'kysely';
import type { BadgeEvent } from '../../../domain/badge/events.ts';
import type { GoalCreated } from '../../../domain/goal/events.ts';
import type { GroupEvent } from '../../../domain/group/events.ts';
import type { ReactionEvent } from '../../../domain/reaction/events.ts';
import type { RunEvent } from '../../../domain/run/events.ts';
import type { RecordedEvent } from '../../../domain/shared/event-store.ts';
import type { StakeEvent } from '../../../domain/stake/events.ts';
import type { RunXpAwarded } from '../../../domain/xp/events.ts';
import type { TableNames } from '../../../projections/engine/projector.ts';
import { badgeEarnedData, feedIds, runCompletedData, stakeCreatedData } from '../../../projections/feed/feed-rows.ts';
import type { FeedEventData, FeedTable } from '../../../projections/feed/feed-tables.ts';

/*
 * The feed projection as it was written before it applied batches in memory (feed-batch.ts): one SQL statement per
 * event, in log order. Kept here as the reference the batched projection is held to
 * (tests/projections/feed-batches.property.test.ts): whatever the statements did, the batch must do.
 */

type Tables = TableNames<FeedTable>;
type Relevant = RunEvent | RunXpAwarded | StakeEvent | BadgeEvent | GoalCreated | GroupEvent | ReactionEvent;
interface Changes {
  readonly feedAuthors: Set<string>;
  readonly reactionAuthors: Set<string>;
  readonly reactors: Set<string>;
  readonly groups: Set<string>;
}

/** Applies `events` one statement at a time, as the feed projection of version 2 did. */
export async function applyStatementByStatement(
  tx: Transaction<object>,
  t: Tables,
  events: readonly RecordedEvent[],
): Promise<void> {
  const changes: Changes = {
    feedAuthors: new Set(),
    reactionAuthors: new Set(),
    reactors: new Set(),
    groups: new Set(),
  };
  for (const recorded of events) await applyOne(tx, t, recorded, changes);
}

async function insertCard(
  tx: Transaction<object>,
  t: Tables,
  recorded: RecordedEvent,
  card: { id: string; userId: string; type: string; data: FeedEventData; visible?: boolean },
) {
  await sql`
    INSERT INTO ${sql.table(t.feed_events)} (id, user_id, group_id, event_type, event_data, is_visible, created_at,
      global_position)
    VALUES (${card.id}, ${card.userId}, NULL, ${card.type}, ${JSON.stringify(card.data)}::jsonb, ${card.visible ?? true},
      ${recorded.metadata.occurredAt}::timestamptz, ${recorded.globalPosition})
    ON CONFLICT (id) DO NOTHING`.execute(tx);
}

async function applyOne(tx: Transaction<object>, t: Tables, recorded: RecordedEvent, changes: Changes) {
  const event = { type: recorded.type, data: recorded.data } as Relevant;
  switch (event.type) {
    case 'RunRecorded': {
      const d = event.data;
      // A rejected run (vehicle, teleport) is kept for its owner's history but not celebrated in the feed.
      const visible = d.verification.verdict !== 'rejected';
      await insertCard(tx, t, recorded, {
        id: feedIds.run(d.runId),
        userId: d.userId,
        type: 'run_completed',
        data: runCompletedData(d),
        visible,
      });
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'RunXpAwarded': {
      const d = event.data;
      await sql`UPDATE ${sql.table(t.feed_events)}
        SET event_data = event_data || ${JSON.stringify({ xp_earned: d.xpAmount, surge_bonus: d.surgeBonus })}::jsonb
        WHERE id = ${feedIds.run(d.runId)}`.execute(tx);
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'RunDeleted': {
      const id = feedIds.run(event.data.runId);
      await sql`DELETE FROM ${sql.table(t.feed_events)} WHERE id = ${id}`.execute(tx);
      await sql`DELETE FROM ${sql.table(t.reactions)} WHERE feed_event_id = ${id}`.execute(tx);
      changes.feedAuthors.add(event.data.userId);
      return;
    }
    case 'GoalCreated':
      await sql`INSERT INTO ${sql.table(t.feed_goal_types)} (goal_id, goal_type)
        VALUES (${event.data.goalId}, ${event.data.type}) ON CONFLICT (goal_id) DO NOTHING`.execute(tx);
      return;
    case 'StakeOpened': {
      const d = event.data;
      const { rows } = await sql<{ goal_type: string }>`
        SELECT goal_type FROM ${sql.table(t.feed_goal_types)} WHERE goal_id = ${d.goalId}`.execute(tx);
      const data = stakeCreatedData(d, rows[0]?.goal_type ?? null);
      await insertCard(tx, t, recorded, {
        id: feedIds.stakeCreated(d.stakeId),
        userId: d.userId,
        type: 'stake_created',
        data,
      });
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'StakeReleased':
      // Only a met goal is news; a stake voided before anything was at risk ('refunded') gets no card.
      if (event.data.outcome === 'succeeded') await settled(tx, t, recorded, event.data.stakeId, true, 0, changes);
      return;
    case 'StakeCollected':
      await settled(tx, t, recorded, event.data.stakeId, false, event.data.donationCents, changes);
      return;
    case 'BadgeEarned': {
      const d = event.data;
      await insertCard(tx, t, recorded, {
        id: feedIds.badge(d.badgeId),
        userId: d.userId,
        type: 'badge_earned',
        data: badgeEarnedData(d),
      });
      changes.feedAuthors.add(d.userId);
      return;
    }
    case 'ReactionAdded':
    case 'ReactionRemoved':
      await applyReaction(tx, t, event, changes);
      return;
    case 'GroupCreated':
      await addMember(tx, t, event.data.groupId, event.data.ownerId, changes);
      return;
    case 'MemberJoined':
      await addMember(tx, t, event.data.groupId, event.data.userId, changes);
      return;
    case 'MemberLeft':
      changes.groups.add(event.data.groupId);
      changes.feedAuthors.add(event.data.userId);
      await sql`DELETE FROM ${sql.table(t.feed_group_members)}
        WHERE group_id = ${event.data.groupId} AND user_id = ${event.data.userId}`.execute(tx);
      return;
    default:
      return;
  }
}

/** A settled stake's card, carrying the charity chosen when it was opened (its name is looked up when read). */
async function settled(
  tx: Transaction<object>,
  t: Tables,
  recorded: RecordedEvent,
  stakeId: string,
  success: boolean,
  donation: number,
  changes: Changes,
) {
  const { rows } = await sql<{ user_id: string; event_data: FeedEventData }>`
    SELECT user_id, event_data FROM ${sql.table(t.feed_events)} WHERE id = ${feedIds.stakeCreated(stakeId)}`.execute(
    tx,
  );
  const opened = rows[0];
  if (!opened) return;
  const charityId = opened.event_data.charity_id ?? null;
  const data: FeedEventData = {
    success,
    goal_type: opened.event_data.goal_type,
    has_charity: charityId !== null,
    charity_id: charityId,
    donation_amount: donation,
  };
  await insertCard(tx, t, recorded, {
    id: feedIds.stakeSettled(stakeId),
    userId: opened.user_id,
    type: 'stake_settled',
    data,
  });
  changes.feedAuthors.add(opened.user_id);
}

async function applyReaction(tx: Transaction<object>, t: Tables, event: ReactionEvent, changes: Changes) {
  const d = event.data;
  if (event.type === 'ReactionAdded') {
    await sql`INSERT INTO ${sql.table(t.reactions)} (feed_event_id, user_id, emoji, created_at)
      VALUES (${d.feedEventId}, ${d.userId}, ${d.emoji}, ${d.at}::timestamptz) ON CONFLICT DO NOTHING`.execute(tx);
  } else {
    await sql`DELETE FROM ${sql.table(t.reactions)}
      WHERE feed_event_id = ${d.feedEventId} AND user_id = ${d.userId} AND emoji = ${d.emoji}`.execute(tx);
  }
  changes.reactors.add(d.userId);
  const { rows } = await sql<{ user_id: string }>`
    SELECT user_id FROM ${sql.table(t.feed_events)} WHERE id = ${d.feedEventId}`.execute(tx);
  if (rows[0]) changes.reactionAuthors.add(rows[0].user_id);
}

async function addMember(tx: Transaction<object>, t: Tables, groupId: string, userId: string, changes: Changes) {
  await sql`INSERT INTO ${sql.table(t.feed_group_members)} (group_id, user_id) VALUES (${groupId}, ${userId})
    ON CONFLICT DO NOTHING`.execute(tx);
  changes.groups.add(groupId);
}
