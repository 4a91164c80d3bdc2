import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'domain/**/*.test.ts',
      'projections/**/*.test.ts',
      'app-server/**/*.test.ts',
      'tests/**/*.test.ts',
      // The web app's platform layer and the native shell's implementations: logic tests in Node, no DOM.
      'web/**/*.test.ts',
      'native/src/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**'],
    reporters: ['default', './tests/support/pass-fail-reporter.ts'],
    // PGlite takes seconds to start and the machine has 2 cores: keep files parallel, tests within a file serial.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
