import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one closing line `N passed, N failed` that CI recognises (vitest's own summary is not such a line).
 * A module that failed to load counts as a failure, so a broken import can never read as green.
 */
export default class PassFailReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    for (const module of testModules) {
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
      }
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  }
}
