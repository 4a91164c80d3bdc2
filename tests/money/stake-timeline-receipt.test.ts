import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { createTestUser, freshToken, runBody, type TestUser } from '../support/users.ts';
import { cycle, saveCard, stakedGoal, stakeOf } from './money-fixtures.ts';

/*
 * Issue 25 items 1 and 5 through the API: the hold's timeline in GET /stakes, the receipt of a collected stake (and
 * only the owner's), and `npm run ledger:charities` / `npm run audit:stakes` on the database afterwards.
 * Monday 2026-11-16 15:00 UTC (10:00 New York); the week is settled on Monday 23 at 00:00 New York.
 */
const CLI_TIMEOUT_MS = 240_000;

describe.each(databaseTargets())('the hold timeline, receipts and the charity ledger on %s', (target) => {
  let rt: TestRuntime;
  let dataDir: string | null = null;
  let closed = false;
  let databaseUrl: string | undefined;
  const users: Record<'missed' | 'met' | 'other', TestUser> = {} as never;
  const goals: Record<'missed' | 'met', string> = {} as never;
  const refresh = async () => {
    for (const k of Object.keys(users) as (keyof typeof users)[]) users[k] = await freshToken(rt, users[k]);
  };

  beforeAll(async () => {
    dataDir = target === 'pglite' ? mkdtempSync(join(tmpdir(), 'stake-receipt-')) : null;
    rt = await startTestRuntime(target, { now: '2026-11-16T15:00:00Z', ...(dataDir ? { dataDir } : {}) });
    databaseUrl = rt.config.DATABASE_URL;
    users.missed = await createTestUser(rt, 'missed');
    users.met = await createTestUser(rt, 'met');
    users.other = await createTestUser(rt, 'other');
    goals.missed = await stakedGoal(rt, users.missed, {
      pm: await saveCard(rt, users.missed),
      charity: 'against-malaria-foundation',
    });
    goals.met = await stakedGoal(rt, users.met, { pm: await saveCard(rt, users.met), charity: 'givedirectly' });
  }, 180_000);
  afterAll(async () => {
    if (!closed) await rt?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('GET /stakes carries the hold: placed_at and the provider’s capture_before, each step with its reason', async () => {
    const pending = await stakeOf(rt, users.missed, goals.missed);
    expect(pending.hold).toMatchObject({ placed_at: null, capture_before: null, steps: [] });
    await cycle(rt);
    const active = await stakeOf(rt, users.missed, goals.missed);
    expect(active.hold).toMatchObject({
      placed_at: '2026-11-16T15:00:00.000Z',
      released_at: null,
      captured_at: null,
      refunded_at: null,
    });
    // A Mastercard hold lasts 7 days (FACTS: card holds expire): the deadline is the provider's, not ours.
    expect(Date.parse(active.hold.capture_before) - Date.parse(active.hold.placed_at)).toBe(7 * 86_400_000);
    expect(active.hold.steps).toEqual([
      {
        kind: 'placed',
        at: active.hold.placed_at,
        reason: 'Your goal is under way: a hold for the stake is placed on your card.',
      },
    ]);
  });

  it('a completed goal’s timeline shows the release and why; a missed week’s shows the capture and why', async () => {
    rt.clock.set('2026-11-16T18:00:00Z');
    await refresh();
    for (const hour of ['16', '17']) {
      const res = await rt.request('POST', '/runs', {
        token: users.met.token,
        body: runBody(`2026-11-16T${hour}:00:00Z`, 1),
      });
      expect(res.status).toBe(201);
    }
    await cycle(rt);
    const met = await stakeOf(rt, users.met, goals.met);
    expect(met.hold.released_at).not.toBeNull();
    expect(met.hold.steps.at(-1)).toMatchObject({
      kind: 'released',
      reason: 'You completed your goal: the hold is released, nothing is taken.',
    });

    rt.clock.set('2026-11-23T05:00:30Z');
    await refresh();
    await cycle(rt);
    const missed = await stakeOf(rt, users.missed, goals.missed);
    expect(missed.status).toBe('lost');
    expect(missed.hold.captured_at).not.toBeNull();
    expect(missed.hold.steps.map((s: { kind: string }) => s.kind)).toEqual(['placed', 'capture_requested', 'captured']);
    expect(missed.hold.steps.at(-1).reason).toBe(
      'You missed your goal: $10.00 captured from the hold ($8.00 to your charity, $2.00 service fee).',
    );
  });

  it('GET /stakes/{id}/receipt: the owner’s collected stake with amount, split, charity and date; 404 otherwise', async () => {
    const missed = await stakeOf(rt, users.missed, goals.missed);
    const receipt = await rt.request('GET', `/stakes/${missed.id}/receipt`, { token: users.missed.token });
    expect(receipt.status).toBe(200);
    expect(receipt.body.data).toMatchObject({
      stake_id: missed.id,
      week_start: '2026-11-16',
      captured_cents: 1000,
      donation_amount_cents: 800,
      fee_cents: 200,
      refunded_cents: 0,
      charity: { id: 'against-malaria-foundation', name: 'Against Malaria Foundation' },
      captured_at: missed.hold.captured_at,
      refunded_at: null,
    });
    // Another runner asking for it learns nothing, not even that it exists.
    const stranger = await rt.request('GET', `/stakes/${missed.id}/receipt`, { token: users.other.token });
    expect(stranger.status).toBe(404);
    expect(stranger.body.error).toBe('Stake not found');
    const unknown = await rt.request('GET', '/stakes/no-such-stake/receipt', { token: users.missed.token });
    expect(unknown.status).toBe(404);
    // A kept stake took no money: there is nothing to receipt.
    const met = await stakeOf(rt, users.met, goals.met);
    const kept = await rt.request('GET', `/stakes/${met.id}/receipt`, { token: users.met.token });
    expect(kept.status).toBe(404);
    expect(kept.body.error).toBe('This stake was not charged, so it has no receipt');
    const signedOut = await rt.request('GET', `/stakes/${missed.id}/receipt`, {});
    expect(signedOut.status).toBe(401);
  });

  it(
    'npm run ledger:charities and npm run audit:stakes on this database: AMF owed $8.00 for 2026-11, the audit passes',
    async () => {
      const env: Record<string, string> = { ...(process.env as Record<string, string>), NODE_ENV: 'test' };
      delete env.DATABASE_URL;
      delete env.DATA_DIR;
      if (dataDir) {
        // The embedded database belongs to one process: stop the runtime, then let the commands open it.
        closed = true;
        await rt.close();
        env.DATA_DIR = dataDir;
      } else {
        env.DATABASE_URL = databaseUrl!;
      }
      const npm = (...args: string[]) => spawnSync('npm', ['run', '--silent', ...args], { env, encoding: 'utf8' });

      const csv = npm('ledger:charities', '--', '--month', '2026-11', '--format', 'csv');
      expect(csv.stderr).toContain('1 charity line in 2026-11, owed 800c');
      expect(csv.status).toBe(0);
      expect(csv.stdout.trim().split('\n')).toEqual([
        'month,charity_id,charity_name,captures,captured_cents,donation_cents,fee_cents,refunds,refunded_cents,refund_charity_cents,owed_cents,paid_cents,due_cents',
        '2026-11,against-malaria-foundation,Against Malaria Foundation,1,1000,800,200,0,0,0,800,0,800',
      ]);

      // What has been paid beside what is owed: a transfer recorded once, never beyond what is still due.
      const payout = (cents: string, reference: string) =>
        npm(
          'ledger:payout',
          '--',
          '--charity',
          'against-malaria-foundation',
          '--month',
          '2026-11',
          '--amount-cents',
          cents,
          '--reference',
          reference,
        );
      const paid = payout('500', 'SEPA 2026-12-01 AMF');
      expect(paid.stdout).toContain('recorded 500c to against-malaria-foundation for 2026-11');
      expect(paid.status).toBe(0);
      expect(payout('500', 'SEPA 2026-12-01 AMF').stdout).toContain('already recorded');
      const tooMuch = payout('400', 'SEPA 2026-12-02 AMF');
      expect(tooMuch.status).toBe(1);
      expect(tooMuch.stderr).toContain('$4.00 is more than the $3.00 still due to against-malaria-foundation for 2026-11');
      const noAmount = payout('0', 'x');
      expect(noAmount.status).toBe(2);
      const afterPayout = npm('ledger:charities', '--', '--month', '2026-11', '--format', 'csv');
      expect(afterPayout.stdout.trim().split('\n')[1]).toBe(
        '2026-11,against-malaria-foundation,Against Malaria Foundation,1,1000,800,200,0,0,0,800,500,300',
      );
      const december = npm('ledger:charities', '--', '--month', '2026-12');
      expect(december.status).toBe(0);
      expect(JSON.parse(december.stdout)).toEqual({ month: '2026-12', charities: [], owed_cents: 0 });
      const bad = npm('ledger:charities', '--', '--month', 'November');
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('--month must be a month as YYYY-MM, for example 2026-12');

      const audit = npm('audit:stakes', '--', '--format', 'json');
      expect(audit.stderr).toContain('violations 0');
      expect(audit.status).toBe(0);
      expect(JSON.parse(audit.stdout).ledger).toEqual([
        {
          month: '2026-11',
          charityId: 'against-malaria-foundation',
          captures: 1,
          capturedCents: 1000,
          donationCents: 800,
          feeCents: 200,
          refunds: 0,
          refundedCents: 0,
          refundCharityCents: 0,
          owedCents: 800,
          payouts: 1,
          paidCents: 500,
          dueCents: 300,
        },
      ]);
    },
    CLI_TIMEOUT_MS,
  );
});
