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
import { executeCommand, toNewEvent } from '../../app-server/commands/execute-command.ts';
import { openDatabase } from '../../app-server/db/database.ts';
import { migrateToLatest } from '../../app-server/db/migrate.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'audit-stakes-'));
const at = (iso: string) => Temporal.Instant.from(iso);
const meta = (now: string) => ({ actorId: 'test', correlationId: 'seed', now: new Date(now), newEventId: () => randomUUID() });

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

function cli(...args: string[]) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), NODE_ENV: 'test', DATA_DIR: dataDir };
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
      for (const [stakeId, charityId] of [[lost, 'givedirectly'], ['goal-cli-met', null]] as const) {
        await run(stakeId, {
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
        }, '2026-11-16T15:00:00Z');
        await run(stakeId, {
          type: 'RecordHoldPlaced',
          paymentIntentId: `pi_${stakeId}`,
          captureBefore: at('2026-11-23T15:00:00Z'),
          now: at('2026-11-16T15:01:00Z'),
        }, '2026-11-16T15:01:00Z');
      }
      await run('goal-cli-met', { type: 'SettleCompleted', now: at('2026-11-18T10:00:00Z') }, '2026-11-18T10:00:00Z');
      await run(lost, { type: 'SettleMissed', now: at('2026-11-23T05:00:00Z') }, '2026-11-23T05:00:00Z');
      await run(lost, { type: 'RecordCaptureSucceeded', capturedCents: 2000, now: at('2026-11-23T05:00:05Z') }, '2026-11-23T05:00:05Z');
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
  }, 60_000);

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
  }, 60_000);
});
