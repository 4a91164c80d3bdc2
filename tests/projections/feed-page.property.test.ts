import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../app-server/db/database.ts';
import { createFeedTables } from '../../projections/feed/feed-tables.ts';
import { FEED_PAGE_SIZE, listFeed } from '../../projections/feed/feed-queries.ts';
import { openMemoryDatabase } from '../support/pglite-image.ts';

/*
 * GET /feed chooses a page from the feed index first (each author's newest visible cards of the asked kinds, at most
 * a page each) and reads only that page's cards (listFeed). The pages must be the ones the plain definition gives:
 * every visible card of the scope's authors, of the filter's kinds, before the cursor, newest first, a page at a
 * time, with a next cursor exactly when more follow.
 */

const USERS = ['u1', 'u2', 'u3', 'u4'] as const;
const GROUP = 'g1';
const MEMBERS = new Set(['u1', 'u2', 'u3']);
const KINDS = ['run_completed', 'stake_created', 'stake_settled', 'badge_earned'] as const;
const FILTERS = {
  all: KINDS,
  runs: ['run_completed'],
  stakes: ['stake_created', 'stake_settled'],
  badges: ['badge_earned'],
} as const;

// Authors with very different amounts of cards: a page may come from one author alone, or from all of them.
const card = fc.record({
  user: fc.oneof({ arbitrary: fc.constant('u1'), weight: 5 }, { arbitrary: fc.constantFrom(...USERS), weight: 3 }),
  kind: fc.oneof(
    { arbitrary: fc.constant('run_completed'), weight: 3 },
    { arbitrary: fc.constantFrom(...KINDS), weight: 1 },
  ),
  visible: fc.oneof({ arbitrary: fc.constant(true), weight: 4 }, { arbitrary: fc.boolean(), weight: 1 }),
});

describe('a feed page chosen from the index is the page the plain definition gives', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openMemoryDatabase();
    const db = database.db;
    await createFeedTables(db, {
      feed_events: 'feed_events',
      reactions: 'reactions',
      feed_goal_types: 'feed_goal_types',
      feed_group_members: 'feed_group_members',
    });
    await sql`CREATE TABLE users (id text PRIMARY KEY, display_name text NOT NULL)`.execute(db);
    await sql`CREATE TABLE group_members (group_id text NOT NULL, user_id text NOT NULL)`.execute(db);
    for (const user of USERS) await sql`INSERT INTO users VALUES (${user}, ${`Runner ${user}`})`.execute(db);
    for (const user of MEMBERS) await sql`INSERT INTO group_members VALUES (${GROUP}, ${user})`.execute(db);
  }, 60_000);
  afterAll(() => database?.close());

  it('for any cards, scope, filter and cursor, page after page (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(card, { maxLength: 4 * FEED_PAGE_SIZE, size: 'max' }),
        fc.constantFrom('own' as const, 'group' as const),
        fc.constantFrom(...(Object.keys(FILTERS) as (keyof typeof FILTERS)[])),
        async (cards, scopeKind, filter) => {
          const db = database.db;
          await sql`DELETE FROM feed_events`.execute(db);
          // Positions with gaps, as in the log: a card per event, never two cards at one position.
          const rows = cards.map((c, i) => ({ ...c, id: `card-${i}`, position: 10 + i * 3 }));
          for (const row of rows) {
            await sql`INSERT INTO feed_events (id, user_id, group_id, event_type, event_data, is_visible, created_at,
              global_position) VALUES (${row.id}, ${row.user}, NULL, ${row.kind}, '{}'::jsonb, ${row.visible}, now(),
              ${row.position})`.execute(db);
          }
          const scope =
            scopeKind === 'own' ? { kind: 'own' as const, userId: 'u1' } : { kind: 'group' as const, groupId: GROUP };
          const authors = scopeKind === 'own' ? new Set(['u1']) : MEMBERS;
          const expected = rows
            .filter((r) => r.visible && authors.has(r.user) && (FILTERS[filter] as readonly string[]).includes(r.kind))
            .sort((a, b) => b.position - a.position);
          let cursor: number | null = null;
          for (let start = 0; ; start += FEED_PAGE_SIZE) {
            const page = await listFeed(db, scope, filter, cursor);
            const want = expected.slice(start, start + FEED_PAGE_SIZE);
            expect(page.rows.map((r) => r.id)).toEqual(want.map((r) => r.id));
            expect(page.rows.every((r) => r.display_name === `Runner ${r.user_id}`)).toBe(true);
            const more = expected.length > start + FEED_PAGE_SIZE;
            expect(page.nextCursor).toBe(more ? want.at(-1)!.position : null);
            if (!more) break;
            cursor = page.nextCursor;
          }
        },
      ),
      { numRuns: Number(process.env.PROPERTY_RUNS ?? 100) },
    );
  }, 300_000);
});
