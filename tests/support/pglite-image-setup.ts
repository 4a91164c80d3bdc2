import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

/**
 * Creates one new PGlite cluster per test run and dumps it to a file, which every in-memory database of the run
 * starts from (pglite-image.ts). Only the empty cluster, before any migration: each test still migrates its own
 * database, so what a test sees is what a new database gives it. Removed when the run ends.
 */
export default async function dumpEmptyPglite(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'stridestake-pglite-'));
  const pglite = new PGlite();
  await pglite.waitReady;
  const image = await pglite.dumpDataDir('none');
  await pglite.close();
  const path = join(dir, 'empty-cluster.tar');
  writeFileSync(path, Buffer.from(await image.arrayBuffer()));
  project.provide('pgliteImage', path);
  return () => rmSync(dir, { recursive: true, force: true });
}
