import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../app-server/config.ts';
import { createPostgresEventStore } from '../../app-server/adapters/event-store/postgres/postgres-event-store.ts';
import { PersonalKeyVault } from '../../app-server/privacy/key-vault.ts';
import { personalDataRules } from '../../app-server/privacy/personal-data-policy.ts';
import { protectPersonalData } from '../../app-server/privacy/protected-event-store.ts';
import { createRuntime } from '../../app-server/runtime.ts';

const root = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'ss-poisoned-'));

/** Runs an operator command on the embedded database in dataDir, as `npm run …` would. */
function cli(script: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [`app-server/cli/${script}.ts`, ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'test' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => done({ code, stdout, stderr }));
  });
}

let eventId = '';

// Each command opens the embedded database and migrates it: seconds apiece on a busy machine.
beforeAll(async () => {
  // The runs table cannot hold notes with a NUL character: the event is stored (sealed, as personal data), and the
  // runs projection refuses it, as it did in production before the API validated notes. Today the runs read model is
  // inline and would refuse the append itself, so the event is written as the older versions wrote it: through the
  // sealing store without the inline projections (as runtime.ts wires it, minus withInlineProjections). A rebuild
  // then meets it and records it as poisoned.
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const runtime = await createRuntime(config);
  try {
    eventId = randomUUID();
    const runId = randomUUID();
    const vault = new PersonalKeyVault({
      db: runtime.database.db,
      serverSecret: config.AUTH_ENCRYPTION_KEY,
      now: () => new Date(),
    });
    const olderVersionStore = protectPersonalData(createPostgresEventStore(runtime.database), vault, personalDataRules);
    await olderVersionStore.appendToStream(`run-${runId}`, [
      {
        type: 'RunNotesEdited',
        data: { runId, userId: randomUUID(), notes: 'a\u0000b', editedAt: '2026-11-18T12:00:00Z' },
        metadata: {
          eventId,
          occurredAt: '2026-11-18T12:00:00Z',
          actorId: null,
          correlationId: eventId,
          causationId: null,
          schemaVersion: 1,
        },
      },
    ]);
    await runtime.projections.rebuild('runs');
  } finally {
    await runtime.close();
  }
}, 120_000);

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('npm run projections:poisoned', () => {
  it('lists, shows, fails to replay, skips the poisoned event; status and rebuild report it', async () => {
    const status = await cli('projections-status');
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/'runs'\s*│[^\n]*│\s*1\s*│/);
    expect(status.stdout).toContain('1 poisoned event(s) missing from the read models');

    const list = await cli('projections-poisoned', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(eventId);
    expect(list.stdout).toContain('RunNotesEdited');
    const id = Number(/│\s*\d+\s*│\s*(\d+)\s*│\s*'runs'/.exec(list.stdout)?.[1]);
    expect(id).toBeGreaterThan(0);

    const show = await cli('projections-poisoned', 'show', String(id));
    expect(show.code).toBe(0);
    const shown = JSON.parse(show.stdout);
    expect(shown).toMatchObject({
      id,
      projection: 'runs',
      status: 'poisoned',
      event_id: eventId,
      event: { type: 'RunNotesEdited' },
    });
    expect(shown.error).toMatch(/^22P05: /);
    // Shown as stored: the personal field stays sealed.
    expect(shown.event.data.notes).toHaveProperty('$personal');

    const replay = await cli('projections-poisoned', 'replay', String(id));
    expect(replay.code).toBe(1);
    expect(replay.stderr).toContain(`Poisoned event ${id} still fails in runs: 22P05`);

    const skip = await cli('projections-poisoned', 'skip', String(id));
    expect(skip.code).toBe(0);
    expect(skip.stdout).toContain(`Skipped poisoned event ${id} (RunNotesEdited in runs)`);

    const rebuild = await cli('projections-rebuild', 'runs');
    expect(rebuild.code).toBe(0);
    expect(rebuild.stdout).toContain('1 event(s) refused by runs and passed');
    // The operator's decision holds across the rebuild, and the open list is empty.
    const after = await cli('projections-poisoned', 'list', '--all');
    expect(after.stdout).toMatch(new RegExp(`│\\s*${id}\\s*│\\s*'runs'\\s*│\\s*'skipped'`));
  }, 240_000);
});
