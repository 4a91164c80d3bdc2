import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { feedProjector } from '../../projections/feed/feed-projector.ts';
import { feedIds } from '../../projections/feed/feed-rows.ts';
import type { FeedTable } from '../../projections/feed/feed-tables.ts';
import type { TableNames } from '../../projections/engine/projector.ts';
import { applyStatementByStatement } from './support/feed-one-statement-at-a-time.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

/*
 * The feed projection applies a batch in memory and writes only what changed (projections/feed/feed-batch.ts). Its
 * rows must be the ones the projection's statements gave when it ran one SQL statement per event
 * (support/feed-one-statement-at-a-time.ts), and must not depend on where the log is cut into batches: any history,
 * applied in one batch or cut anywhere, gives the tables the statements give. Histories mix
 * everything that touches the same rows: runs recorded, paid, deleted; reactions on cards that exist, were deleted or
 * never were; stakes opened and settled with their goal's type; badges; members joining and leaving.
 */

const USERS = ['u1', 'u2', 'u3'];
const RUNS = ['r1', 'r2', 'r3', 'r4'];
const GOALS = ['g1', 'g2'];
const STAKES = ['s1', 's2'];
const GROUPS = ['grp1', 'grp2'];
const CARDS = [...RUNS.map(feedIds.run), ...STAKES.map(feedIds.stakeCreated), feedIds.badge('b1'), 'card-nowhere'];

type Shape = { type: string; data: Record<string, unknown> };

const event: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    type: fc.constant('RunRecorded'),
    data: fc.record({
      runId: fc.constantFrom(...RUNS),
      userId: fc.constantFrom(...USERS),
      distanceKm: fc.integer({ min: 0, max: 20 }),
      durationSec: fc.integer({ min: 60, max: 7200 }),
      source: fc.constantFrom('gps', 'strava'),
      verification: fc.record({ verdict: fc.constantFrom('verified', 'rejected') }),
    }),
  }),
  fc.record({
    type: fc.constant('RunXpAwarded'),
    data: fc.record({
      runId: fc.constantFrom(...RUNS),
      userId: fc.constantFrom(...USERS),
      xpAmount: fc.integer({ min: 0, max: 200 }),
      surgeBonus: fc.integer({ min: 0, max: 50 }),
    }),
  }),
  fc.record({
    type: fc.constant('RunDeleted'),
    data: fc.record({ runId: fc.constantFrom(...RUNS), userId: fc.constantFrom(...USERS) }),
  }),
  fc.record({
    type: fc.constant('GoalCreated'),
    data: fc.record({ goalId: fc.constantFrom(...GOALS), type: fc.constantFrom('distance', 'count') }),
  }),
  fc.record({
    type: fc.constant('StakeOpened'),
    data: fc.record({
      stakeId: fc.constantFrom(...STAKES),
      goalId: fc.constantFrom(...GOALS),
      userId: fc.constantFrom(...USERS),
      charityId: fc.constantFrom(null, 'givedirectly'),
    }),
  }),
  fc.record({
    type: fc.constant('StakeReleased'),
    data: fc.record({ stakeId: fc.constantFrom(...STAKES), outcome: fc.constantFrom('succeeded', 'refunded') }),
  }),
  fc.record({
    type: fc.constant('StakeCollected'),
    data: fc.record({ stakeId: fc.constantFrom(...STAKES), donationCents: fc.integer({ min: 0, max: 8000 }) }),
  }),
  fc.record({
    type: fc.constant('BadgeEarned'),
    data: fc.record({
      badgeId: fc.constant('b1'),
      userId: fc.constantFrom(...USERS),
      badgeType: fc.constant('first_run'),
    }),
  }),
  fc.record({
    type: fc.constantFrom('ReactionAdded', 'ReactionRemoved'),
    data: fc.record({
      // Mostly one card, user and kind, so the same reaction is often added, removed and added again.
      feedEventId: fc.oneof(
        { arbitrary: fc.constant(CARDS[0]!), weight: 3 },
        { arbitrary: fc.constantFrom(...CARDS), weight: 2 },
      ),
      userId: fc.oneof(
        { arbitrary: fc.constant('u1'), weight: 3 },
        { arbitrary: fc.constantFrom(...USERS), weight: 1 },
      ),
      emoji: fc.oneof(
        { arbitrary: fc.constant('fire'), weight: 3 },
        { arbitrary: fc.constantFrom('thumbs_up', 'clap', 'fire'), weight: 1 },
      ),
      at: fc.integer({ min: 0, max: 10_000 }).map((s) => new Date(Date.UTC(2026, 10, 20) + s * 1000).toISOString()),
    }),
  }),
  fc.record({
    type: fc.constantFrom('GroupCreated', 'MemberJoined', 'MemberLeft'),
    data: fc
      .record({ groupId: fc.constantFrom(...GROUPS), userId: fc.constantFrom(...USERS) })
      .map((d) => ({ ...d, ownerId: d.userId })),
  }),
);

function recorded(shapes: readonly Shape[]): RecordedEvent[] {
  return shapes.map((shape, i) => ({
    type: shape.type,
    data: shape.data,
    metadata: {
      eventId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      occurredAt: new Date(Date.UTC(2026, 10, 20) + i * 60_000).toISOString(),
      actorId: null,
      correlationId: 'c',
      causationId: null,
      schemaVersion: 1,
    },
    streamId: `s-${i}`,
    streamRevision: 0,
    position: { commit: i + 1, prepare: i + 1 },
    globalPosition: i + 1,
    recordedAt: new Date(Date.UTC(2026, 10, 20) + i * 60_000).toISOString(),
  })) as RecordedEvent[];
}

const tablesNamed = (suffix: string): TableNames<FeedTable> => ({
  feed_events: `feed_events_${suffix}`,
  reactions: `reactions_${suffix}`,
  feed_goal_types: `feed_goal_types_${suffix}`,
  feed_group_members: `feed_group_members_${suffix}`,
});

describe('the feed projection gives the same rows wherever the log is cut into batches', () => {
  let database: Database;
  const cut = tablesNamed('cut');
  const single = tablesNamed('single');
  const statements = tablesNamed('statements');
  beforeAll(async () => {
    database = await openMemoryDatabase();
    for (const t of [cut, single, statements]) await feedProjector.createTables(database.db, t);
  }, 60_000);
  afterAll(() => database?.close());

  const apply = (t: TableNames<FeedTable>, events: readonly RecordedEvent[]) =>
    database.db.transaction().execute((tx) => feedProjector.apply(events, { tx, tables: t, announce: () => {} }));

  const contents = async (t: TableNames<FeedTable>) => ({
    cards: (
      await sql`SELECT id, user_id, group_id, event_type, event_data, is_visible, created_at, global_position
        FROM ${sql.table(t.feed_events)} ORDER BY id`.execute(database.db)
    ).rows,
    reactions: (
      await sql`SELECT * FROM ${sql.table(t.reactions)} ORDER BY feed_event_id, user_id, emoji`.execute(database.db)
    ).rows,
    goalTypes: (await sql`SELECT * FROM ${sql.table(t.feed_goal_types)} ORDER BY goal_id`.execute(database.db)).rows,
    members: (
      await sql`SELECT * FROM ${sql.table(t.feed_group_members)} ORDER BY group_id, user_id`.execute(database.db)
    ).rows,
  });

  it('for any history and any cuts (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 60, size: 'max' }),
        fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 4 }),
        async (shapes, cutPoints) => {
          for (const t of [cut, single, statements]) {
            for (const table of Object.values(t)) await sql`DELETE FROM ${sql.table(table)}`.execute(database.db);
          }
          const events = recorded(shapes);
          const bounds = [0, ...[...new Set(cutPoints)].filter((p) => p < events.length).sort((a, b) => a - b)];
          for (let i = 0; i < bounds.length; i++)
            await apply(cut, events.slice(bounds[i], bounds[i + 1] ?? events.length));
          for (const one of events) await apply(single, [one]);
          await database.db.transaction().execute((tx) => applyStatementByStatement(tx, statements, events));
          const expected = await contents(statements);
          expect(await contents(cut)).toEqual(expected);
          expect(await contents(single)).toEqual(expected);
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) },
    );
  }, 300_000);
});
