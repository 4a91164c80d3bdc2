import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveCard } from '../money/money-fixtures.ts';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, runBody, type TestUser } from '../support/users.ts';

/**
 * Issue 26, item 2 (API side): the run's verdict sentence (`verification.summary`) names what the run counts toward
 * in its own week: the stake when the week's goal has money on it, the goal when it is free, nothing in a week
 * without a goal. The week is Monday 2026-11-16 to Sunday 2026-11-22.
 */
describe.each(databaseTargets())(
  'the run verdict summary names the goal, a stake only when there is one, on %s',
  (target) => {
    let rt: TestRuntime;
    let free: TestUser;
    let staked: TestUser;
    let goalless: TestUser;
    const as = (user: TestUser) => (method: string, path: string, body?: unknown) =>
      rt.request(method, path, { token: user.token, ...(body === undefined ? {} : { body }) });

    beforeAll(async () => {
      rt = await startTestRuntime(target, { now: '2026-11-18T12:00:00Z' });
      free = await createTestUser(rt, 'free');
      staked = await createTestUser(rt, 'staked');
      goalless = await createTestUser(rt, 'goalless');
      expect((await as(free)('POST', '/goals', { type: 'distance', target_value: 10 })).status).toBe(201);
      const pm = await saveCard(rt, staked);
      const goal = await as(staked)('POST', '/goals', {
        type: 'distance',
        target_value: 10,
        stake_amount_cents: 2_000,
        payment_method_id: pm,
      });
      expect(goal.status).toBe(201);
    }, 120_000);
    afterAll(() => rt?.close());

    it('a run in a free goal’s week counts toward your goal, never a stake', async () => {
      const res = await as(free)('POST', '/runs', runBody('2026-11-18T10:00:00Z', 5));
      expect(res.status).toBe(201);
      expect(res.body.data.verification.summary).toBe('Counted all 5.00 km toward your goal');
      const list = await as(free)('GET', '/runs');
      expect(list.body.data[0].verification.summary).toBe('Counted all 5.00 km toward your goal');
    });

    it('a run in a week without a goal names nothing it counts toward', async () => {
      const res = await as(goalless)('POST', '/runs', runBody('2026-11-18T10:00:00Z', 5));
      expect(res.status).toBe(201);
      expect(res.body.data.verification.summary).toBe('Counted all 5.00 km');
      // The free runner's run of the week before, when they had no goal yet: nothing named either.
      const earlier = await as(free)('POST', '/runs', runBody('2026-11-12T10:00:00Z', 3));
      expect(earlier.status).toBe(201);
      expect(earlier.body.data.verification.summary).toBe('Counted all 3.00 km');
      const page = await as(free)('GET', '/runs');
      expect(page.body.data.map((r: { verification: { summary: string } }) => r.verification.summary)).toEqual([
        'Counted all 5.00 km toward your goal',
        'Counted all 3.00 km',
      ]);
    });

    it('a run in a staked week counts toward your stake', async () => {
      const res = await as(staked)('POST', '/runs', runBody('2026-11-18T10:00:00Z', 5));
      expect(res.status).toBe(201);
      expect(res.body.data.verification.summary).toBe('Counted all 5.00 km toward your stake');
      const one = await as(staked)('GET', `/runs/${res.body.data.id}`);
      expect(one.body.data.verification.summary).toBe('Counted all 5.00 km toward your stake');
    });
  },
);
