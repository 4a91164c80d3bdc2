import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Access, Renewal } from './auth-client.ts';

const auth = vi.hoisted(() => ({
  access: null as Access | null,
  renewal: { kind: 'unknown' } as Renewal,
  renewals: [] as string[],
}));

vi.mock('./auth-client.ts', () => ({
  currentAccess: async () => auth.access,
  renewAfterUnauthorized: async (rejected: string) => {
    auth.renewals.push(rejected);
    return auth.renewal;
  },
}));

const { api, NOT_SIGNED_IN_AS, SESSION_ENDED } = await import('./api.ts');

/** The API stand-in: 401 for the token `old`, 200 for any other; records the bearer of each request. */
function stubApi() {
  const bearers: (string | null)[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    const bearer = (init.headers as Record<string, string>).authorization ?? null;
    bearers.push(bearer);
    return bearer === 'Bearer old'
      ? new Response('{"error":"Session expired or signed out"}', { status: 401 })
      : new Response('{"data":"ok"}', { status: 200 });
  });
  return bearers;
}

describe('the API client and a 401', () => {
  let bearers: (string | null)[];
  const signal = new AbortController().signal;
  beforeEach(() => {
    bearers = stubApi();
    auth.access = { token: 'old', userId: 'user-a' };
    auth.renewals = [];
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('a token the auth service renews: the request is sent again with it, once', async () => {
    auth.renewal = { kind: 'renewed', access: { token: 'new', userId: 'user-a' } };
    await expect(api('/goals/current', { signal })).resolves.toEqual({ data: 'ok' });
    expect(bearers).toEqual(['Bearer old', 'Bearer new']);
    expect(auth.renewals).toEqual(['old']);
  });

  it('a session the auth service no longer has: ended (by the auth client), and the call fails as such', async () => {
    auth.renewal = { kind: 'ended' };
    await expect(api('/goals/current', { signal })).rejects.toMatchObject({
      message: SESSION_ENDED,
      status: 401,
      code: 'session_ended',
    });
    expect(bearers).toEqual(['Bearer old']);
  });

  it('no telling (the auth service out of reach): the 401 as it came, nobody signed out', async () => {
    auth.renewal = { kind: 'unknown' };
    await expect(api('/goals/current', { signal })).rejects.toMatchObject({ status: 401, code: null });
    expect(bearers).toEqual(['Bearer old']);
  });

  it('a 401 without a token asks nobody', async () => {
    auth.access = null;
    await expect(api('/goals/current', { signal })).resolves.toEqual({ data: 'ok' });
    expect(auth.renewals).toEqual([]);
  });

  it('asUser: never sent under another user’s session, nor under none, nor after a renewal as someone else', async () => {
    await expect(api('/runs', { method: 'POST', body: {}, asUser: 'user-b' })).rejects.toMatchObject({
      message: NOT_SIGNED_IN_AS,
      status: 401,
    });
    auth.access = null;
    await expect(api('/runs', { method: 'POST', body: {}, asUser: 'user-a' })).rejects.toMatchObject({ status: 401 });
    expect(bearers).toEqual([]);
    auth.access = { token: 'old', userId: 'user-a' };
    auth.renewal = { kind: 'renewed', access: { token: 'new', userId: 'user-b' } };
    await expect(api('/runs', { method: 'POST', body: {}, asUser: 'user-a' })).rejects.toMatchObject({
      message: NOT_SIGNED_IN_AS,
    });
    expect(bearers).toEqual(['Bearer old']);
    auth.renewal = { kind: 'renewed', access: { token: 'new', userId: 'user-a' } };
    await expect(api('/runs', { method: 'POST', body: {}, asUser: 'user-a' })).resolves.toEqual({ data: 'ok' });
  });
});
