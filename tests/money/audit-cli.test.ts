import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { afterAll, describe, expect, it } from 'vitest';
import { stakeDecider } from '../../domain/stake/decide.ts';
import type { StakeCommand } from '../../domain/stake/commands.ts';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { toNewEvent } from '../../app-server/commands/event-metadata.ts';
import { openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'audit-stakes-'));
const at = (iso: string) => Temporal.Instant.from(iso);
const meta = (now: string) => ({
  actorId: 'test',
  correlationId: 'seed',
  now: new Date(now),
  newEventId: () => randomUUID(),
});

/** Opens the on-disk PGlite database, runs `work` on its event store, and closes it (the CLI needs it free). */
async function withStore(work: (store: ReturnType<typeof createPostgresEventStore>) => Promise<void>) {
  const database = await openDatabase({ dataDir });
  await migrateToLatest(database.db);
  const store = createPostgresEventStore(database);
  try {
    await work(store);
  } finally {
    await store.close();
    await database.close();
  }
}

/**
 * Each CLI run opens its own embedded database (several seconds, far more on a loaded two-core machine) and a test
 * runs the CLI up to four times: one such run took 72 s in CI under load. A limit, not a measurement.
 */
const CLI_TEST_TIMEOUT_MS = 240_000;

function cli(...args: string[]) {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
  };
  delete env.DATABASE_URL;
  return spawnSync(process.execPath, ['app-server/cli/audit-stakes.ts', ...args], { env, encoding: 'utf8' });
}

// The CLI reads the log of the database it is pointed at; an on-disk PGlite stands in for the production database.
describe('npm run audit:stakes', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const lost = 'goal-cli-lost';

  it('prints its report and exits 0 on a seeded database', async () => {
    await withStore(async (store) => {
      const run = (stakeId: string, command: StakeCommand, now: string) =>
        executeCommand(store, stakeDecider, `stake-${stakeId}`, command, meta(now));
      for (const [stakeId, charityId] of [
        [lost, 'givedirectly'],
        ['goal-cli-met', null],
      ] as const) {
        await run(
          stakeId,
          {
            type: 'OpenStake',
            stakeId,
            goalId: stakeId.slice(5),
            userId: 'user-cli',
            amountCents: 2000,
            charityId,
            paymentMethodId: 'pm_card_mastercard',
            weekStart: '2026-11-16',
            timeZone: 'America/New_York',
            now: at('2026-11-16T15:00:00Z'),
          },
          '2026-11-16T15:00:00Z',
        );
        await run(
          stakeId,
          {
            type: 'RecordHoldPlaced',
            paymentIntentId: `pi_${stakeId}`,
            captureBefore: at('2026-11-23T15:00:00Z'),
            now: at('2026-11-16T15:01:00Z'),
          },
          '2026-11-16T15:01:00Z',
        );
      }
      await run('goal-cli-met', { type: 'SettleCompleted', now: at('2026-11-18T10:00:00Z') }, '2026-11-18T10:00:00Z');
      await run(lost, { type: 'SettleMissed', now: at('2026-11-23T05:00:00Z') }, '2026-11-23T05:00:00Z');
      await run(
        lost,
        { type: 'RecordCaptureSucceeded', capturedCents: 2000, now: at('2026-11-23T05:00:05Z') },
        '2026-11-23T05:00:05Z',
      );
    });
    const res = cli('--format', 'json');
    expect(res.stderr).toContain('violations 0');
    expect(res.status).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.totals).toMatchObject({ stakes: 2, capturedCents: 2000, donationCents: 1600, feeCents: 400 });
    expect(report.totals.byCharity).toEqual({ givedirectly: { stakes: 1, donationCents: 1600 } });
    const csv = cli('--format', 'csv', '--charity', 'givedirectly');
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[1]).toContain(lost);
  }, CLI_TEST_TIMEOUT_MS);

  it('lists a released stake whose completing run would not pass today’s policy: a warning (exit 0, 3 with --strict)', async () => {
    const goalId = 'cli-review';
    const stakeId = `goal-${goalId}`;
    const t0 = Date.parse('2026-11-17T14:00:00Z');
    await withStore(async (store) => {
      const append = (streamId: string, events: { type: string; data: unknown }[], now: string) =>
        store.appendToStream(
          streamId,
          events.map((e) => toNewEvent(e, meta(now))),
        );
      await append(
        `goal-${goalId}`,
        [
          {
            type: 'GoalCreated',
            data: {
              goalId,
              userId: 'user-review',
              type: 'distance',
              targetValue: 30,
              enteredValue: 30,
              enteredUnit: 'km',
              stakeAmountCents: 10_000,
              charityId: null,
              paymentMethodId: 'pm_card_mastercard',
              timeZone: 'America/New_York',
              weekStart: '2026-11-16',
              weekEnd: '2026-11-22',
              createdAt: '2026-11-16T15:00:00Z',
            },
          },
          { type: 'GoalActivated', data: { goalId, weekStart: '2026-11-16', activatedAt: '2026-11-16T15:00:00Z' } },
        ],
        '2026-11-16T15:00:00Z',
      );
      // The attack of issue 11 as policy version 1 judged it: 2 fixes 31 km and 3 hours apart, a "GPS glitch".
      await append(
        'run-r-sparse',
        [
          {
            type: 'RunRecorded',
            data: {
              runId: 'r-sparse',
              userId: 'user-review',
              source: 'gps',
              importId: null,
              startedAt: '2026-11-17T14:00:00.000Z',
              distanceKm: 31,
              durationSec: 10_800,
              positions: [
                { latitude: 40, longitude: -74, timestamp: t0, accuracy: 5 },
                {
                  latitude: 40 + 31 * (360 / (2 * Math.PI * 6371)),
                  longitude: -74,
                  timestamp: t0 + 10_800_000,
                  accuracy: 5,
                },
              ],
              importFlags: null,
              notes: null,
              verification: { verdict: 'suspicious', reasons: ['sparse_gps'], trustedDistanceKm: 31, policyVersion: 1 },
              recordedAt: '2026-11-17T17:05:00Z',
            },
          },
        ],
        '2026-11-17T17:05:00Z',
      );
      await append(
        `goal-${goalId}`,
        [{ type: 'GoalCompleted', data: { goalId, progress: 31, completedAt: '2026-11-17T17:06:00Z' } }],
        '2026-11-17T17:06:00Z',
      );
      const run = (command: StakeCommand, now: string) =>
        executeCommand(store, stakeDecider, `stake-${stakeId}`, command, meta(now));
      await run(
        {
          type: 'OpenStake',
          stakeId,
          goalId,
          userId: 'user-review',
          amountCents: 10_000,
          charityId: null,
          paymentMethodId: 'pm_card_mastercard',
          weekStart: '2026-11-16',
          timeZone: 'America/New_York',
          now: at('2026-11-16T15:00:00Z'),
        },
        '2026-11-16T15:00:00Z',
      );
      await run({ type: 'SettleCompleted', now: at('2026-11-17T17:06:00Z') }, '2026-11-17T17:06:00Z');
    });
    const res = cli('--user', 'user-review');
    expect(res.status).toBe(0);
    expect(res.stderr).toContain('violations 0, releases owed 0, released stakes to review 1');
    expect(res.stderr).toContain(`REVIEW ${stakeId}: its completing runs would not pass the run policy today: 0 of 30`);
    expect(JSON.parse(res.stdout).review).toEqual([
      expect.objectContaining({
        stakeId,
        progressWhenCompleted: 31,
        progressToday: 0,
        goalMet: true,
        failingRuns: [{ runId: 'r-sparse', stakeKmThen: 31, stakeKmToday: 0, reasons: ['sparse_gps'] }],
      }),
    ]);
    expect(cli('--user', 'user-review', '--strict').status).toBe(3);
    expect(cli('--user', 'user-cli', '--strict').status).toBe(0);
    expect(cli('--format', 'csv', '--user', 'user-review').stdout.split('\n')[1]).toContain('would not pass');
  }, CLI_TEST_TIMEOUT_MS);

  it('exits non-zero and names the stake when a violating event is appended', async () => {
    await withStore(async (store) => {
      // A second collection of a settled stake with a wrong split: bypasses the decider, as a bug or tampering would.
      const bad = {
        type: 'StakeCollected',
        data: {
          stakeId: lost,
          outcome: 'lost',
          method: 'charge',
          paymentIntentId: 'pi_again',
          capturedCents: 2000,
          donationCents: 1000,
          feeCents: 1000,
          charityId: 'givedirectly',
          collectedAt: '2026-11-24T05:00:00Z',
        },
      };
      await store.appendToStream(`stake-${lost}`, [toNewEvent(bad, meta('2026-11-24T05:00:00Z'))]);
    });
    const res = cli();
    expect(res.status).toBe(1);
    expect(res.stderr).toContain(`VIOLATION ${lost}: settled 2 times`);
    expect(res.stderr).toContain('donation is not the charity share (80%)');
    expect(cli('--format', 'xml').status).toBe(2);
  }, CLI_TEST_TIMEOUT_MS);
});
