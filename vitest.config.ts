import { defineConfig } from 'vitest/config';
import { filesNeedingAbsentServers } from './tests/support/needs-server.ts';

const E2E = 'tests/e2e/**/*.test.ts';

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/pass-fail-reporter.ts'],
    // Files in parallel, tests within a file serial. Two workers: vitest's default in a run is one fewer than the
    // cores, which on these 2-core machines ran one file at a time (wall time equal to the files' summed times). Much
    // of a file's time is waiting (PostgreSQL, a browser, a child process): on the core and web files, 3 workers took
    // 303 s against 477 s for one; the browser files 405 s on 2 against 580 s on one.
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['domain/**/*.test.ts', 'projections/**/*.test.ts', 'app-server/**/*.test.ts', 'tests/**/*.test.ts'],
          // Without DATABASE_URL (or READ_REPLICA_URL) the files needing that server have nothing to run.
          exclude: ['**/node_modules/**', E2E, ...filesNeedingAbsentServers(process.env)],
          // One empty PGlite cluster dumped per run, which every in-memory test database loads (pglite-image.ts).
          globalSetup: ['tests/support/pglite-image-setup.ts'],
          // A worker runs its files one after another in one module graph: importing the server's modules afresh for
          // every file was a third of the run's CPU. These files mock no module and each closes what it opens.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The web app's platform layer and the native shell's implementations: logic tests in Node, no DOM. They
          // mock modules and globals (vi.mock, vi.stubGlobal), so each file keeps its own module graph.
          name: 'web',
          include: ['web/**/*.test.ts', 'native/src/**/*.test.ts'],
          exclude: ['**/node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          // Browser journeys share one web build per run, made only when an e2e file is queued.
          name: 'e2e',
          include: [E2E],
          exclude: ['**/node_modules/**'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
        },
      },
    ],
  },
});
