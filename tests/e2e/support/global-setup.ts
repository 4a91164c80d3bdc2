import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildWebApp } from './web-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the web build shared by every e2e file of this run (see web-build.ts). */
    e2eWebBuild: string;
  }
}

/**
 * Builds the web app once per test run for every e2e file (vitest calls this only when an e2e file is queued), and
 * removes the build when the run ends.
 */
export default async function buildSharedWebApp(project: TestProject): Promise<() => void> {
  const outDir = mkdtempSync(join(tmpdir(), 'stridestake-web-'));
  await buildWebApp(outDir);
  project.provide('e2eWebBuild', outDir);
  return () => rmSync(outDir, { recursive: true, force: true });
}
