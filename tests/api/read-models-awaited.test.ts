import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LogPosition } from '../../domain/shared/event-store.ts';
import { A_RUN_LEAVES_TO_CATCH_UP } from '../../app-server/http/read-your-writes.ts';
import { allProjectors } from '../../projections/registry.ts';
import { saveCard } from '../money/money-fixtures.ts';
import { untilCommittedIsVisible } from '../support/committed-log.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/*
 * Read-your-writes, derived: each write route waits for exactly the asynchronous read models whose projectors handle
 * a type of event it appended, whatever those are. A route once listed ['goals'] for a goal whose stake opened in the
 * same transaction, and the next GET /stakes had no stake. Here the events are read back from the log (the request's
 * own: its correlation id, no cause) and compared with what the route waited for, route by route.
 */
const TOKEN = 'operator-token-for-read-models-awaited';

/** The spec: every projector that handles one of `types`, except the inline ones and the log statistics ('all'). */
const reachedBy = (types: readonly string[]) =>
  allProjectors
    .filter((p) => !p.inline && p.eventTypes !== 'all' && types.some((t) => p.eventTypes.includes(t)))
    .map((p) => p.name)
    .sort();

describe.each(databaseTargets())('the read models each write waits for on %s', (target) => {
  let rt: TestRuntime;
  let alice: TestUser;
  let bob: TestUser;
  const waits: (readonly string[] | undefined)[] = [];

  /**
   * On PostgreSQL an append committed while an older transaction (a worker's, after the previous write) is still
   * open sits behind the log's horizon: readAll leaves it out until that transaction ends. Reading the request's own
   * events before then found none (a CI run: PATCH /runs "appended" nothing). Wait for the committed head first.
   */
  /** Sends a write; answers its response, the types it appended (from the log) and the read models it waited for. */
  async function write(user: TestUser | null, method: string, path: string, body?: unknown, key?: string) {
    const before: LogPosition | null = await rt.store.headPosition();
    waits.length = 0;
    const res = await rt.request(method, path, {
      ...(user ? { token: user.token } : { headers: { authorization: `Bearer ${TOKEN}` } }),
      ...(body === undefined ? {} : { body }),
      ...(key && user ? { headers: { 'idempotency-key': key } } : {}),
    });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    expect(res.body.catching_up, `${method} ${path}`).toBeUndefined();
    const requestId = res.headers.get('x-request-id');
    await untilCommittedIsVisible(rt.store);
    // A user's command correlates with the request; the operator's is the operator's (its own correlation id).
    const own = (await rt.store.readAll({ after: before, maxCount: 10_000 })).filter(
      (e) =>
        e.metadata.causationId === null &&
        (user ? e.metadata.correlationId === requestId : e.metadata.actorId === 'system:operator'),
    );
    const awaited = waits.map((names) => [...(names ?? ['every one'])].sort());
    return { res, appended: [...new Set(own.map((e) => e.type))], awaited };
  }

  /**
   * Sends a write and checks it waited once, for the read models its own events reach, less those a run's answer
   * leaves to catch up (`leaves`: A_RUN_LEAVES_TO_CATCH_UP for the run routes); none left: it did not wait at all.
   */
  async function waitsForWhatItAppended(
    user: TestUser | null,
    method: string,
    path: string,
    body?: unknown,
    leaves: readonly string[] = [],
  ) {
    const sent = await write(user, method, path, body);
    expect(sent.appended.length, `${method} ${path} appended`).toBeGreaterThan(0);
    const expected = reachedBy(sent.appended).filter((name) => !leaves.includes(name));
    expect(sent.awaited, `${method} ${path} appended ${sent.appended.join(', ')}`).toEqual(
      expected.length > 0 ? [expected] : [],
    );
    return sent;
  }

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z', config: { OPERATOR_TOKEN: TOKEN } });
    const reached = rt.projections.reached.bind(rt.projections);
    vi.spyOn(rt.projections, 'reached').mockImplementation((position, options) => {
      waits.push(options?.projections);
      return reached(position, options);
    });
    alice = await createTestUser(rt, 'alice', 'America/New_York');
    bob = await createTestUser(rt, 'bob', 'America/New_York');
  }, 60_000);
  afterAll(() => rt?.close());

  it('a goal with a stake waits for the stakes read model: the stake opened in its transaction', async () => {
    const pm = await saveCard(rt, bob);
    const body = { type: 'distance', target_value: 20, stake_amount_cents: 1000, payment_method_id: pm };
    const { appended, awaited } = await waitsForWhatItAppended(bob, 'POST', '/goals', body);
    expect(appended).toContain('StakeOpened');
    expect(awaited[0]).toContain('stakes');
    const stakes = await rt.request('GET', '/stakes', { token: bob.token });
    expect(stakes.body.stakes).toHaveLength(1);
  });

  it('goals, runs and pauses wait for the read models their events reach', async () => {
    const goal = await waitsForWhatItAppended(alice, 'POST', '/goals', { type: 'distance', target_value: 10 });
    expect(goal.awaited[0]).not.toContain('stakes');
    const body = runBody('2026-11-17T08:00:00Z', 5, 'easy');
    const run = await waitsForWhatItAppended(alice, 'POST', '/runs', body, A_RUN_LEAVES_TO_CATCH_UP);
    // Runs and goals are inline, and the feed card is left to catch up: a run's answer waits for no worker.
    expect(reachedBy(run.appended)).toEqual(['feed']);
    expect(run.awaited).toEqual([]);
    const runId = run.res.body.data.id as string;
    await waitsForWhatItAppended(alice, 'PATCH', `/runs/${runId}`, { notes: 'hilly' }, A_RUN_LEAVES_TO_CATCH_UP);
    await waitsForWhatItAppended(alice, 'POST', `/feed/run-${runId}/reactions`, { emoji: 'fire' });
    await waitsForWhatItAppended(alice, 'DELETE', `/feed/run-${runId}/reactions/fire`);
    await waitsForWhatItAppended(alice, 'DELETE', `/runs/${runId}`, undefined, A_RUN_LEAVES_TO_CATCH_UP);
    await waitsForWhatItAppended(alice, 'POST', '/goals/pauses', { week_start: '2026-11-30', reason: 'travel' });
    await waitsForWhatItAppended(alice, 'DELETE', '/goals/pauses/2026-11-30');
    await waitsForWhatItAppended(alice, 'PATCH', `/goals/${goal.res.body.data.id}`, { status: 'canceled' });
  });

  it('groups and the operator’s surges wait for the read models their events reach', async () => {
    const group = await waitsForWhatItAppended(alice, 'POST', '/groups', { name: 'Awaited Crew' });
    const id = group.res.body.data.id as string;
    await waitsForWhatItAppended(bob, 'POST', '/groups/join', { invite_code: group.res.body.data.invite_code });
    await waitsForWhatItAppended(alice, 'POST', `/groups/${id}/invite-code`);
    await waitsForWhatItAppended(bob, 'POST', `/groups/${id}/leave`);
    const surge = await waitsForWhatItAppended(null, 'POST', '/api/operator/surges', {
      multiplier: 2,
      start: '2026-11-19T09:00:00Z',
      hours: 3,
    });
    expect(surge.awaited[0]).toContain('surges');
    await waitsForWhatItAppended(null, 'DELETE', `/api/operator/surges/${surge.res.body.data.id}`);
  });

  it('a keyed repeat that appends nothing waits for what the first call appended (recorded with its result)', async () => {
    const group = { name: 'Awaited Twice' };
    const first = await write(alice, 'POST', '/groups', group, 'awaited-repeat-group');
    expect(first.appended).toContain('GroupCreated');
    const repeat = await write(alice, 'POST', '/groups', group, 'awaited-repeat-group');
    expect(repeat.res.body.data.id).toBe(first.res.body.data.id);
    expect(repeat.appended).toEqual([]);
    expect(repeat.awaited).toEqual([reachedBy(first.appended)]);
    // A run's repeat, like the run, waits for no worker.
    const body = runBody('2026-11-17T18:00:00Z', 3, 'again');
    const run = await write(alice, 'POST', '/runs', body, 'awaited-repeat-run');
    const runAgain = await write(alice, 'POST', '/runs', body, 'awaited-repeat-run');
    expect(runAgain.res.body.data.id).toBe(run.res.body.data.id);
    expect([run.awaited, runAgain.awaited]).toEqual([[], []]);
  });

  it('a repeat of a result recorded without its appends (before they were kept) waits for every read model', async () => {
    const first = await write(alice, 'POST', '/groups', { name: 'Awaited Before' }, 'awaited-repeat-legacy');
    // The row as a server of the previous version wrote it: the bare result.
    await sql`
      UPDATE idempotency_keys SET outcome = outcome->'result'
      WHERE user_id = ${alice.id} AND key = 'awaited-repeat-legacy'`.execute(rt.database.db);
    const repeat = await write(alice, 'POST', '/groups', { name: 'Awaited Before' }, 'awaited-repeat-legacy');
    expect(repeat.res.body.data.id).toBe(first.res.body.data.id);
    const everyAsync = allProjectors.filter((p) => !p.inline && p.eventTypes !== 'all').map((p) => p.name);
    expect(repeat.awaited).toEqual([everyAsync.sort()]);
  });
});
