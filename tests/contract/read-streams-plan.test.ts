import { type RawBuilder, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamsStatement } from '../../app-server/adapters/event-store/postgres/read-events.ts';
import { numberedEvents } from './support/contract-events.ts';
import { contractTargets, type OpenTarget } from './support/targets.ts';

/*
 * Settlement reads stake and goal streams from the revision it remembers (stream-state-cache.ts), hundreds at once.
 * On a fresh clone of a large log, before any statistics, the read joined to its list of ids alone was planned as a
 * merge join over the whole stream index: 1.8 s a read at 830k events, and the 100,000-goal fixture's seed crawled.
 * Both forms of the read must probe the index with the ids, whatever the planner knows about the table.
 */
for (const target of contractTargets().filter((t) => t.name !== 'kurrentdb')) {
  describe(`reading many streams probes the stream index: ${target.name}`, () => {
    let t: OpenTarget;
    const ids: string[] = [];
    beforeAll(async () => {
      t = await target.open();
      // 2,000 streams of three events, never analyzed; a few of them read (as a settlement page reads a few hundred of
      // a log's hundreds of thousands).
      for (let batch = 0; batch < 4; batch++) {
        const appends = Array.from({ length: 500 }, (_, i) => ({
          streamId: `plan-${batch}-${String(i).padStart(3, '0')}`,
          events: numberedEvents(3),
        }));
        await t.store.appendToStreams(appends);
        ids.push(...appends.filter((_, i) => i % 200 === 7).map((a) => a.streamId));
      }
    });
    afterAll(() => t?.close());

    const plan = async (statement: RawBuilder<unknown>) => {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${statement}`.execute(t.database.db);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    };

    it('reads whole streams by their ids', async () => {
      expect(await plan(streamsStatement(ids))).toMatch(/Index Cond: \(.*stream_id = ANY/);
    });

    it('reads streams from remembered revisions by their ids, not by a walk of the whole index', async () => {
      const fromRevisions = new Map(ids.map((id) => [id, 2]));
      const shown = await plan(streamsStatement(ids, fromRevisions));
      expect(shown).toMatch(/Index Cond: \(.*stream_id = ANY/);
      expect(shown).not.toMatch(/Seq Scan on es_events/);
      const { rows } = await streamsStatement(ids, fromRevisions).execute(t.database.db);
      expect(rows.map((r) => [r.stream_id, Number(r.stream_revision)])).toEqual(ids.map((id) => [id, 2]));
    });
  });
}
