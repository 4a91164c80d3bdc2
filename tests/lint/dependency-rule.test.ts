import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const biome = join(root, 'node_modules/.bin/biome');

/**
 * Runs `npm run lint`'s Biome with the project's own biome.json on a probe file placed at `path` inside a scratch
 * copy of the layout, so the real tree is never written to.
 */
function lint(path: string, text: string): { ok: boolean; output: string } {
  const scratch = mkdtempSync(join(tmpdir(), 'lint-probe-'));
  try {
    const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'));
    delete config.vcs;
    delete config.$schema;
    writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), text);
    const run = spawnSync(biome, ['lint', path], { cwd: scratch, encoding: 'utf8' });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe('the dependency rule of ARCHITECTURE.md is enforced by the linter', () => {
  it('refuses an I/O library in domain/', () => {
    const result = lint('domain/goal/probe.ts', "import { Kysely } from 'kysely';\nexport const k = Kysely;\n");
    expect(result.ok).toBe(false);
    expect(result.output).toContain('domain/ does no I/O');
  });

  it('refuses our own server code in domain/', () => {
    const result = lint(
      'domain/goal/probe.ts',
      "import { x } from '../../app-server/config.ts';\nexport const y = x;\n",
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('domain/ is the pure core');
  });

  it('accepts zod and fp-ts in domain/', () => {
    const result = lint(
      'domain/goal/probe.ts',
      "import { z } from 'zod';\nimport { either } from 'fp-ts/lib/index.js';\nexport const s = [z, either];\n",
    );
    expect(result.output).not.toContain('noRestrictedImports');
    expect(result.ok).toBe(true);
  });

  it('refuses fp-ts directory imports, which Node cannot load outside the test runner', () => {
    const bad = lint('app-server/x/probe.ts', "import { left } from 'fp-ts/Either';\nexport const l = left;\n");
    expect(bad.ok).toBe(false);
    expect(bad.output).toContain('fp-ts/lib/<Module>.js');
    const good = lint('domain/goal/probe.ts', "import { left } from 'fp-ts/lib/Either.js';\nexport const l = left;\n");
    expect(good.ok).toBe(true);
  });

  it('refuses app-server/ imports in projections/', () => {
    const result = lint(
      'projections/feed/probe.ts',
      "import { x } from '../../app-server/config.ts';\nexport const y = x;\n",
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('projections/ may import domain/ only');
  });

  it('refuses a web feature importing another feature, at any depth; its own files and shared code are fine', () => {
    const message = 'Features never import each other';
    const probes: Array<[string, string]> = [
      ['web/src/features/goals/probe.ts', "import { x } from '../runs/api/get-runs.ts';"],
      ['web/src/features/goals/components/probe.tsx', "import { x } from '../../runs/components/run-list.tsx';"],
      ['web/src/features/runs/offline/components/probe.tsx', "import { x } from '../../../goals/api/get-goals.ts';"],
    ];
    for (const [path, line] of probes) {
      const result = lint(path, `${line}\nexport const y = x;\n`);
      expect({ path, ok: result.ok }).toEqual({ path, ok: false });
      expect(result.output).toContain(message);
    }
    const own = lint(
      'web/src/features/runs/offline/components/probe.tsx',
      "import { a } from '../run-queue.ts';\nimport { b } from '../../api/save-run.ts';\nimport { c } from '../../../../lib/format.ts';\nimport { d } from '../../../../../../domain/shared/units.ts';\nexport const y = [a, b, c, d];\n",
    );
    expect(own.output).not.toContain(message);
    expect(own.ok).toBe(true);
  });

  it('refuses shared web code (lib, components) importing a feature', () => {
    const result = lint(
      'web/src/lib/probe.ts',
      "import { x } from '../features/goals/api/get-goals.ts';\nexport const y = x;\n",
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('Shared code (web/src/lib, web/src/components) never imports a feature');
  });

  it('refuses native code or Capacitor in web/: native/ implements what web/ owns, not the reverse', () => {
    for (const line of [
      "import { x } from '../../../../native/src/storage.ts';",
      "import { x } from '@capacitor/core';",
    ]) {
      const result = lint('web/src/lib/platform/probe.ts', `${line}\nexport const y = x;\n`);
      expect(result.ok).toBe(false);
      expect(result.output).toContain('web/ owns the platform interfaces');
    }
    const inverted = lint(
      'native/src/probe.ts',
      "import { platform } from '../../web/src/lib/platform/index.ts';\nexport const y = platform;\n",
    );
    expect(inverted.ok).toBe(true);
  });

  it('keeps clocks and randomness out of domain/ source', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'domain'], {
      cwd: root,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const offenders = files.filter((file) => {
      const text = readFileSync(join(root, file), 'utf8');
      return /Date\.now\(|new Date\(\)|Math\.random\(|performance\.now\(/.test(text);
    });
    expect(offenders).toEqual([]);
  });
});
