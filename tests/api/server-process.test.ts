import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { openDatabase } from '../../app-server/db/database.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'ss-start-'));
const port = 40_000 + Math.floor(Math.random() * 10_000);

/** Starts `npm start`'s entry point as a real process on the embedded database and waits for it to listen. */
async function startServer(env: Record<string, string> = {}): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, ['app-server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) return { child, output: () => output };
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output}`);
}

function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });
}

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('the server process on the embedded database', () => {
  it('serves /health, stops gracefully on SIGTERM and keeps its data across a restart', async () => {
    const first = await startServer();
    const health = await fetch(`http://127.0.0.1:${port}/health`);
    expect(health.status).toBe(200);
    expect(health.headers.get('content-type')).toContain('application/json');
    expect(await health.json()).toMatchObject({ status: 'ok', database: { kind: 'pglite', ok: true } });
    expect(await stop(first.child)).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    // Write an event while the server is down, then check the restarted server projects it from the same files.
    const database = await openDatabase({ dataDir });
    const store = createPostgresEventStore(database);
    const eventId = randomUUID();
    await store.appendToStream('probe-1', [
      {
        type: 'ProbeRecorded',
        data: { note: 'written between restarts' },
        metadata: {
          eventId,
          occurredAt: new Date().toISOString(),
          actorId: null,
          correlationId: eventId,
          causationId: null,
          schemaVersion: 1,
        },
      },
    ]);
    await store.close();
    await database.close();

    const second = await startServer();
    let body: { projections: { name: string; position: number; lag: number }[] } = { projections: [] };
    for (let i = 0; i < 50; i++) {
      body = (await (await fetch(`http://127.0.0.1:${port}/health`)).json()) as typeof body;
      if (body.projections.every((p) => p.lag === 0 && p.position > 0)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(body.projections.find((p) => p.name === 'log-stats')).toMatchObject({ lag: 0 });
    expect(body.projections.find((p) => p.name === 'log-stats')!.position).toBeGreaterThan(0);
    expect(await stop(second.child)).toBe(0);

    const reopened = await openDatabase({ dataDir });
    const again = createPostgresEventStore(reopened);
    const events = await again.readStream('probe-1');
    expect(events.map((e) => e.metadata.eventId)).toEqual([eventId]);
    await again.close();
    await reopened.close();
  });

  it('refuses to start with an invalid variable and names it', async () => {
    const child = spawn(process.execPath, ['app-server/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: 'not-a-port', DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((done) => child.once('exit', done));
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
  });
});
