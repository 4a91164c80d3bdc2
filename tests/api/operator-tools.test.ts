import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const folders: string[] = [];
const tempDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ss-operator-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** Runs an operator CLI the way `npm run …` does, on the embedded database in `dataDir`. */
function cli(script: string, dataDir: string, ...args: string[]) {
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  return spawnSync(process.execPath, [`app-server/cli/${script}.ts`, ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** `npm start`'s entry point on `dataDir` and `port`, with PUBLIC_URL unset; resolves once /health answers. */
async function startServer(dataDir: string, port: number): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.PUBLIC_URL;
  let output = '';
  const child = spawn(process.execPath, ['app-server/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const stop = () =>
    new Promise<void>((done) => {
      if (child.exitCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGTERM');
    });
  // A fresh embedded database is initialised first: generous on a busy machine.
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return { child, stop };
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`server did not start:\n${output}`);
}

/** A stack trace's telltale line. */
const STACK_LINE = /^\s+at /m;

// Issue 10, item 7: operator tools on a fresh database and next to a running `npm start`.
describe('operator tools on the embedded database', () => {
  it('npm run audit:stakes on a fresh database (no event log yet) exits 0 and says there is nothing to audit', () => {
    const res = cli('audit-stakes', tempDataDir());
    expect(res.stderr).toBe('Nothing to audit: 0 stakes in the event log.\n');
    expect(res.status).toBe(0);
    expect(JSON.parse(res.stdout).totals).toMatchObject({ stakes: 0, capturedCents: 0 });
  }, 120_000);

  it('while npm start holds the database, every CLI says what to do and exits non-zero, without a stack trace; PUBLIC_URL follows PORT', async () => {
    const dataDir = tempDataDir();
    const port = 41_000 + Math.floor(Math.random() * 9_000);
    const server = await startServer(dataDir, port);
    try {
      // The confirmation link of a sign-up points at the port the server really listens on.
      const email = `port-${port}@example.com`;
      const signUp = await fetch(`http://127.0.0.1:${port}/auth/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'correct horse battery', data: { display_name: 'Port' } }),
      });
      expect(signUp.status).toBe(200);
      const mailbox = (await (
        await fetch(`http://127.0.0.1:${port}/dev/mail?to=${encodeURIComponent(email)}`)
      ).json()) as {
        mail: { links: string[] }[];
      };
      expect(mailbox.mail[0]!.links[0]).toMatch(new RegExp(`^http://localhost:${port}/auth/v1/verify\\?`));

      for (const [script, ...args] of [
        ['audit-stakes'],
        ['surge', 'list'],
        ['surge', 'schedule', '--multiplier', '2', '--start', '2030-01-01T09:00:00Z', '--hours', '1'],
        ['projections-status'],
        ['projections-rebuild', 'runs'],
      ] as const) {
        const res = cli(script, dataDir, ...args);
        const label = `${script} ${args.join(' ')}`;
        expect(res.status, label).toBe(1);
        expect(res.stderr, label).toContain(`is in use by process ${server.child.pid}`);
        expect(res.stderr, label).toContain('Stop it first, or set DATABASE_URL');
        expect(res.stderr, label).not.toMatch(STACK_LINE);
      }
    } finally {
      await server.stop();
    }
    // Once the server stopped, the same commands work on its database.
    const audit = cli('audit-stakes', dataDir);
    expect(audit.status).toBe(0);
    expect(audit.stderr).toBe('Nothing to audit: 0 stakes in the event log.\n');
    const status = cli('projections-status', dataDir);
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('runs');
  }, 300_000);
});
