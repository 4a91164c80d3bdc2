import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeCommand } from '../../app-server/commands/execute-command.ts';
import { surgeDecider } from '../../domain/surge/decide.ts';
import { type DatabaseTarget, databaseTargets, startTestRuntime, type TestRuntime } from '../support/test-runtime.ts';
import { logRun, settle, type TestUser, testUser } from './gamification-fixtures.ts';

const root = resolve(import.meta.dirname, '../..');

describe.each(databaseTargets())('surge on %s', (target: DatabaseTarget) => {
  let rt: TestRuntime;
  let a: TestUser;
  let n = 0;
  const schedule = (surgeId: string, startsAt: string, endsAt: string, xpMultiplier = 2) =>
    executeCommand(
      rt.store,
      surgeDecider,
      'surge-schedule',
      {
        type: 'ScheduleSurge',
        surgeId,
        xpMultiplier,
        startsAt,
        endsAt,
        now: Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime()),
      },
      {
        actorId: null,
        correlationId: 'test',
        now: rt.clock.now(),
        newEventId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      },
    );

  beforeAll(async () => {
    rt = await startTestRuntime(target, { now: '2026-11-28T08:00:00Z' });
    a = await testUser(rt, 'ada');
    await schedule('s-now', '2026-11-28T09:00:00Z', '2026-11-28T12:00:00Z');
    await schedule('s-later', '2026-12-05T09:00:00Z', '2026-12-05T10:00:00Z', 1.5);
    await schedule('s-called-off', '2026-12-12T09:00:00Z', '2026-12-12T10:00:00Z');
    await executeCommand(
      rt.store,
      surgeDecider,
      'surge-schedule',
      {
        type: 'CancelSurge',
        surgeId: 's-called-off',
        now: Temporal.Instant.fromEpochMilliseconds(rt.clock.now().getTime()),
      },
      {
        actorId: null,
        correlationId: 'test',
        now: rt.clock.now(),
        newEventId: () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
      },
    );
    await settle(rt);
  }, 120_000);
  afterAll(async () => rt?.close());

  it('GET /surge/active is null before the surge and the surge while it runs', async () => {
    expect((await rt.request('GET', '/surge/active')).body).toEqual({ success: true, data: null });
    rt.clock.set('2026-11-28T10:00:00Z');
    const res = await rt.request('GET', '/surge/active');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: 's-now',
        status: 'active',
        xp_multiplier: 2,
        start_time: '2026-11-28T09:00:00.000Z',
        end_time: '2026-11-28T12:00:00.000Z',
        seconds_remaining: 7200,
      },
    });
  });

  it('a run started during the surge earns its multiplier, named in the description', async () => {
    await logRun(rt, a.id, 'surge-run', 5, '2026-11-28T09:30:00Z');
    await settle(rt);
    const res = await rt.request('GET', '/me/xp-history?run_ids=surge-run', { token: await a.token() });
    expect(res.body.data).toEqual([
      expect.objectContaining({
        xp_amount: 100,
        base_xp: 50,
        surge_bonus: 50,
        xp_multiplier: 2,
        description: 'Run: 5.00 km (Surge 2x)',
      }),
    ]);
    await logRun(rt, a.id, 'plain-run', 5, '2026-11-28T07:30:00Z');
    await settle(rt);
    const plain = await rt.request('GET', '/me/xp-history?run_ids=plain-run', { token: await a.token() });
    expect(plain.body.data[0]).toMatchObject({ xp_amount: 50, surge_bonus: 0, description: 'Run: 5.00 km' });
  });

  it('GET /surge/upcoming and /surge/history', async () => {
    const upcoming = await rt.request('GET', '/surge/upcoming');
    expect(upcoming.body.data.map((s: { id: string }) => s.id)).toEqual(['s-later']);
    rt.clock.set('2026-12-20T00:00:00Z');
    const history = await rt.request('GET', '/surge/history');
    expect(history.body.data.map((s: { id: string; status: string }) => [s.id, s.status])).toEqual([
      ['s-called-off', 'canceled'],
      ['s-later', 'ended'],
      ['s-now', 'ended'],
    ]);
    expect((await rt.request('GET', '/surge/history?limit=1')).body.data).toHaveLength(1);
  });

  it('bad queries answer 400', async () => {
    for (const [path, error] of [
      ['/surge/history?limit=0', 'limit: must be between 1 and 100'],
      ['/surge/history?limit=x', 'limit: must be a number'],
      ['/surge/active?foo=1', 'Unrecognized key: "foo"'],
      ['/surge/upcoming?foo=1', 'Unrecognized key: "foo"'],
    ] as const) {
      const res = await rt.request('GET', path);
      expect({ path, status: res.status, error: res.body.error }).toEqual({ path, status: 400, error });
    }
  });
});

describe('npm run surge', () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, ['app-server/cli/surge.ts', ...args], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
      timeout: 60_000,
    });

  it('explains bad arguments', () => {
    const cases: Array<[string[], string]> = [
      [[], 'Missing command'],
      [['launch'], 'Unknown command "launch"'],
      [['schedule', '--start', '2026-11-28T09:00:00Z', '--hours', '3'], '--multiplier is required'],
      [
        ['schedule', '--multiplier', 'two', '--start', '2026-11-28T09:00:00Z', '--hours', '3'],
        '--multiplier must be a number',
      ],
      [
        ['schedule', '--multiplier', '1', '--start', '2026-11-28T09:00:00Z', '--hours', '3'],
        '--multiplier must be greater than 1',
      ],
      [['schedule', '--multiplier', '2', '--start', 'tomorrow', '--hours', '3'], '--start must be an ISO instant'],
      [
        ['schedule', '--multiplier', '2', '--start', '2026-11-28T09:00:00Z', '--hours', '0'],
        '--hours must be more than 0',
      ],
      [['cancel'], 'cancel needs exactly one surge id'],
    ];
    for (const [args, message] of cases) {
      const result = run(args);
      expect({ args, status: result.status, stderr: result.stderr.split('\n')[0] }).toMatchObject({ args, status: 2 });
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('Usage:');
    }
  });

  it('schedules, lists and refuses an overlap on an embedded database', () => {
    const dir = mkdtempSync(join(tmpdir(), 'surge-cli-'));
    try {
      const env = { DATA_DIR: dir };
      const start = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = run(['schedule', '--multiplier', '2', '--start', start, '--hours', '3'], env);
      expect(scheduled.stderr).toBe('');
      expect(scheduled.stdout).toMatch(/^scheduled [0-9a-f-]{36}: 2x from /);
      const overlap = run(['schedule', '--multiplier', '3', '--start', start, '--hours', '1'], env);
      expect(overlap.status).toBe(1);
      expect(overlap.stderr).toContain('Surge overlaps another surge');
      const listed = run(['list'], env);
      expect(listed.stdout).toMatch(/scheduled\s+2x/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
