import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line `N passed, N failed` that CI recognises (vitest's own summary is not such a line).
 * A module that failed without a failed test of its own (a broken import, or a `beforeAll` that threw and left
 * every test skipped) counts as a failure, so it can never read as green.
 */
export default class PassFailReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    for (const module of testModules) {
      let failedTests = 0;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedTests++;
      }
      failed += failedTests;
      if (module.state() === 'failed' && failedTests === 0) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
