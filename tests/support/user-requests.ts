import type { TestResponse, TestRuntime } from './test-runtime.ts';
import type { TestUser } from './users.ts';

/**
 * Requests a signed-in test user makes, shared by the API tests that retry writes (Idempotency-Key, the same
 * recording twice): one spelling of "post as this user, with or without a key" and "this user's runs".
 */
export function userRequests(rt: () => TestRuntime) {
  return {
    /** POST as `user`; `key` goes in the Idempotency-Key header when given. */
    post(user: TestUser, path: string, body: unknown, key?: string): Promise<TestResponse> {
      return rt().request('POST', path, {
        token: user.token,
        body,
        ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
      });
    },
    /** The user's run history, newest first (one page of 100: these tests save a handful). */
    async runsOf(user: TestUser): Promise<{ id: string }[]> {
      return (await rt().request('GET', '/runs?limit=100', { token: user.token })).body.data;
    },
  };
}
