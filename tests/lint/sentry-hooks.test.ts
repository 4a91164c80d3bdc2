import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scrubbingHooks } from '../../web/src/lib/error-reporting/sentry-options.ts';

/*
 * Every kind of payload the Sentry SDK sends has its own `before…` hook, and a kind without our scrubber goes out as
 * the SDK made it: streamed spans once carried a runner's e-mail from a URL's query string while errors, transactions
 * and breadcrumbs were scrubbed. This reads the hooks the installed SDK's options declare, so an SDK update that adds
 * a kind fails here until sentry-options.ts scrubs it too.
 */
describe('the web app scrubs every kind of payload the Sentry SDK can send', () => {
  it('sets a scrubbing hook for each `before…` option of @sentry/core', () => {
    const require = createRequire(import.meta.url);
    const browser = dirname(require.resolve('@sentry/react/package.json'));
    const core = dirname(createRequire(join(browser, 'package.json')).resolve('@sentry/core/package.json'));
    const declared = readFileSync(join(core, 'build/types/types/options.d.ts'), 'utf8');
    const hooks = [...new Set([...declared.matchAll(/^\s+(before[A-Z]\w*)\??:/gm)].map((m) => m[1]!))].sort();
    expect(hooks).toContain('beforeSendSpan');
    expect(Object.keys(scrubbingHooks).sort()).toEqual(hooks);
  });
});
