import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type Database, openDatabase } from '../../app-server/db/database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The file of the run's dump of a new, empty PGlite cluster (made by pglite-image-setup.ts). */
    pgliteImage: string;
  }
}

let image: Blob | undefined;

/**
 * A new in-memory PGlite database for a test, started from the run's dump of an empty cluster
 * (pglite-image-setup.ts): about 0.5 s instead of the 2–3 s initdb takes inside PGlite. Without the dump (a project
 * that does not make one) it starts a new cluster. Every in-memory database of the tests comes from here
 * (tests/lint/pglite-image.test.ts).
 */
export async function openMemoryDatabase(): Promise<Database> {
  return openDatabase({ dataDir: 'memory', pgliteImage: emptyClusterImage() });
}

/** The run's dump of an empty PGlite cluster, read once per test process; undefined when the run made none. */
export function emptyClusterImage(): Blob | undefined {
  if (image) return image;
  const path = inject('pgliteImage');
  if (!path) return undefined;
  image = new Blob([readFileSync(path)]);
  return image;
}
