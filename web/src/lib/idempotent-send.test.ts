import { describe, expect, it } from 'vitest';
import { newIdempotencyKey, RETRY_DELAYS_MS, sendWithRetries } from './idempotent-send.ts';

/** A server stand-in answering each attempt from a script: a status, or 'down' for a network failure. */
function server(script: readonly (number | 'down')[]) {
  const attempts: number[] = [];
  return {
    attempts,
    send: async () => {
      const step = script[attempts.length] ?? 200;
      attempts.push(attempts.length);
      if (step === 'down') throw new TypeError('Failed to fetch');
      return new Response('{}', { status: step });
    },
  };
}
const noWait = { wait: async () => {} };

describe('idempotent POST retries', () => {
  it('retries a network failure and a 503 with the same request, then returns the answer', async () => {
    const api = server(['down', 503, 201]);
    const response = await sendWithRetries(api.send, noWait);
    expect(response.status).toBe(201);
    expect(api.attempts).toHaveLength(3);
  });

  it('gives up after the last delay: the last failure is what the caller sees', async () => {
    const down = server(['down', 'down', 'down', 201]);
    await expect(sendWithRetries(down.send, noWait)).rejects.toThrow('Failed to fetch');
    expect(down.attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
    const busy = server([503, 503, 503, 201]);
    expect((await sendWithRetries(busy.send, noWait)).status).toBe(503);
  });

  it('never retries an answer the server gave on purpose (4xx, 500) or an abort', async () => {
    for (const status of [400, 409, 422, 500]) {
      const api = server([status]);
      expect((await sendWithRetries(api.send, noWait)).status).toBe(status);
      expect(api.attempts).toHaveLength(1);
    }
    const aborted = new AbortController();
    aborted.abort();
    let calls = 0;
    const send = async () => {
      calls += 1;
      throw new DOMException('aborted', 'AbortError');
    };
    await expect(sendWithRetries(send, { ...noWait, signal: aborted.signal })).rejects.toThrow('aborted');
    expect(calls).toBe(1);
  });

  it('waits as the server asks with Retry-After, else the backoff', async () => {
    const waits: number[] = [];
    let n = 0;
    const send = async () =>
      ++n === 1
        ? new Response('', { status: 503, headers: { 'retry-after': '2' } })
        : new Response('', { status: 503 });
    await sendWithRetries(send, { wait: async (ms) => void waits.push(ms) });
    expect(waits).toEqual([2000, RETRY_DELAYS_MS[1]]);
  });

  it('a fresh key per action: a UUID, different each time', () => {
    const keys = new Set(Array.from({ length: 50 }, newIdempotencyKey));
    expect(keys.size).toBe(50);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});
