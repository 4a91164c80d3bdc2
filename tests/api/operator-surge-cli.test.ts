import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from '../support/server-process.ts';

const root = resolve(import.meta.dirname, '../..');
const TOKEN = 'operator-cli-token-0123456789abcdef-0123456789';
/** A stack trace's telltale line. */
const STACK_LINE = /^\s+at /m;

/**
 * Issue 26, item 13: `npm run surge` while `npm start` holds the embedded database. The command sees the server's
 * pid file, goes through its operator routes with OPERATOR_TOKEN, and the schedule it changes is the server's: the
 * public GET /surge/upcoming shows it at once. Without the token it says what to do; once the server stopped, the same
 * command opens the database itself and finds the same schedule.
 */
describe('npm run surge beside a running server on the embedded database', () => {
  let dataDir = '';
  let server: ServerProcess;
  let port = 0;

  /** `npm run surge -- …` as an operator runs it in the same checkout: same DATA_DIR and PORT, `env` over them. */
  const surge = (args: string[], env: Record<string, string | undefined> = {}) => {
    const merged: Record<string, string | undefined> = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      OPERATOR_TOKEN: TOKEN,
      DATABASE_URL: undefined,
      SERVER_URL: undefined,
      ...env,
    };
    const clean = Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >;
    return spawnSync(process.execPath, ['app-server/cli/surge.ts', ...args], {
      cwd: root,
      env: clean,
      encoding: 'utf8',
      timeout: 60_000,
    });
  };
  /**
   * GET a JSON answer from the server. Once again on a socket the server closed as it was reused: the test's fetch
   * keeps connections alive across the seconds a CLI takes, past the server's keep-alive timeout.
   */
  const getJson = async <T>(path: string): Promise<T> => {
    try {
      return (await (await fetch(`${server.url}${path}`)).json()) as T;
    } catch {
      return (await (await fetch(`${server.url}${path}`)).json()) as T;
    }
  };
  const start = new Date(Date.now() + 24 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  let surgeId = '';

  beforeAll(async () => {
    port = await freePort();
    dataDir = mkdtempSync(join(tmpdir(), 'ss-surge-cli-'));
    server = await startServerProcess(
      { DATA_DIR: dataDir, PORT: String(port), OPERATOR_TOKEN: TOKEN, DATABASE_URL: '', LOG_LEVEL: 'warn' },
      120_000,
    );
  }, 150_000);
  afterAll(async () => {
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('schedules through the running server; GET /surge/upcoming shows it at once, and list names it', async () => {
    const res = surge(['schedule', '--multiplier', '2', '--start', start, '--hours', '3']);
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    const match = /^scheduled (\S+): 2x from (\S+) to (\S+)\n$/.exec(res.stdout);
    expect(match, res.stdout).not.toBeNull();
    surgeId = match![1]!;
    expect(match![2]).toBe(start);
    const upcoming = await getJson<{ data: { id: string; xp_multiplier: number }[] }>('/surge/upcoming');
    expect(upcoming.data).toMatchObject([{ id: surgeId, xp_multiplier: 2 }]);
    const list = surge(['list']);
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(`${surgeId}  scheduled  2x  ${start}`);
  }, 120_000);

  it('an overlap is refused with the server’s sentence, exit 1, no stack trace', () => {
    const res = surge(['schedule', '--multiplier', '3', '--start', start, '--hours', '1']);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe('Surge overlaps another surge\n');
  }, 60_000);

  it('without OPERATOR_TOKEN, or with a wrong one, it says what to do and exits 1', async () => {
    const without = surge(['list'], { OPERATOR_TOKEN: undefined });
    expect(without.status).toBe(1);
    expect(without.stderr).toContain(`is in use by process ${server.child.pid}`);
    expect(without.stderr).toContain('set OPERATOR_TOKEN');
    expect(without.stderr).not.toMatch(STACK_LINE);
    const wrong = surge(['list'], { OPERATOR_TOKEN: `${TOKEN}-not-it` });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toBe('Wrong operator token\n');
    const unreachable = surge(['list', '--server', `http://127.0.0.1:${await freePort()}`]);
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(/^Cannot reach the server at http:\/\/127\.0\.0\.1:\d+ /);
  }, 60_000);

  it('cancels through the server (gone from /surge/upcoming); stopped, the same command finds it on the database', async () => {
    const canceled = surge(['cancel', surgeId]);
    expect(canceled.stderr).toBe('');
    expect(canceled.stdout).toBe(`canceled ${surgeId}\n`);
    const upcoming = await getJson<{ data: unknown[] }>('/surge/upcoming');
    expect(upcoming.data).toEqual([]);
    expect(await server.stop()).toBe(0);
    const list = surge(['list']);
    expect(list.stderr).toBe('');
    expect(list.status).toBe(0);
    expect(list.stdout).toContain(`${surgeId}  canceled   2x  ${start}`);
  }, 120_000);
});
