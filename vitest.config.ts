import { defineConfig } from 'vitest/config';
import { filesNeedingAbsentServers } from './tests/support/needs-server.ts';

const E2E = 'tests/e2e/**/*.test.ts';

export default defineConfig({
  test: {
    reporters: ['default', './tests/support/pass-fail-reporter.ts'],
    // PGlite takes seconds to start and the machine has 2 cores: keep files parallel, tests within a file serial.
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
