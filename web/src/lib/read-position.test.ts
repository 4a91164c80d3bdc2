import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('./auth-client.ts', () => ({
  currentAccess: async () => ({ token: 't', userId: 'user-a' }),
  renewAfterUnauthorized: async () => ({ kind: 'unknown' }),
}));

const { api } = await import('./api.ts');
const { forgetReadPosition } = await import('./read-position.ts');

/**
 * The API stand-in: a write answers with the position `next` names (as the API does with a replica), a read records
 * the x-read-after it was sent.
 */
function stubApi() {
  const seen: { method: string; after: string | null }[] = [];
  const state = { next: null as string | null };
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    seen.push({ method: init.method ?? 'GET', after: headers['x-read-after'] ?? null });
    const answer = new Response('{"data":"ok"}', { status: init.method === 'POST' ? 201 : 200 });
    if (init.method !== 'GET' && state.next) answer.headers.set('x-read-position', state.next);
    return answer;
  });
  return { seen, state };
}

describe('reads after the app’s own writes, with the API on a replica', () => {
  let api$: ReturnType<typeof stubApi>;
  // A read with a signal is always sent by the app itself (not taken from the page's first requests).
  const signal = new AbortController().signal;
  beforeEach(() => {
    forgetReadPosition();
    api$ = stubApi();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends nothing before a write, then the position the write answered with, on every read', async () => {
    await api('/runs', { signal });
    api$.state.next = '0/16B3D48';
    await api('/runs', { method: 'POST', body: {} });
    await api('/runs', { signal });
    await api('/goals/current', { signal });
    expect(api$.seen.map((s) => [s.method, s.after])).toEqual([
      ['GET', null],
      ['POST', null],
      ['GET', '0/16B3D48'],
      ['GET', '0/16B3D48'],
    ]);
  });

  it('keeps the latest position by the log’s order, not the order answers arrived in', async () => {
    api$.state.next = 'A/0';
    await api('/runs', { method: 'POST', body: {} });
    api$.state.next = '9/FFFFFFFF';
    await api('/runs', { method: 'DELETE' });
    await api('/runs', { signal });
    expect(api$.seen.at(-1)).toEqual({ method: 'GET', after: 'A/0' });
  });

  it('ignores a position it cannot parse (an API without a replica sends none)', async () => {
    api$.state.next = 'not/a position';
    await api('/runs', { method: 'POST', body: {} });
    await api('/runs', { signal });
    expect(api$.seen.at(-1)).toEqual({ method: 'GET', after: null });
  });
});
