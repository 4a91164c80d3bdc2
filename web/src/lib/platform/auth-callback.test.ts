import { describe, expect, it } from 'vitest';
import { completeAuthCallback, parseAuthCallback } from './auth-callback.ts';

describe('the auth callback deep link', () => {
  it('reads a PKCE code from the query and tokens from the fragment', () => {
    expect(parseAuthCallback('stridestake://auth/callback?code=abc')).toEqual({ kind: 'code', code: 'abc' });
    expect(parseAuthCallback('stridestake://auth/callback#access_token=a&refresh_token=r&type=signup')).toEqual({
      kind: 'session',
      accessToken: 'a',
      refreshToken: 'r',
    });
  });

  it('reports the URL’s error, a callback with nothing in it, and ignores other links', () => {
    expect(parseAuthCallback('stridestake://auth/callback#error=access_denied&error_description=Link+expired')).toEqual(
      { kind: 'error', message: 'Link expired' },
    );
    expect(parseAuthCallback('stridestake://auth/callback')).toEqual({
      kind: 'error',
      message: 'No session defined in URL',
    });
    expect(parseAuthCallback('stridestake://auth/callbackx?code=1')).toBeNull();
    expect(parseAuthCallback('https://example.com/?code=1')).toBeNull();
  });

  it('exchanges a code or sets the session, and throws the client’s error', async () => {
    const calls: string[] = [];
    const client = {
      exchangeCodeForSession: async (code: string) => {
        calls.push(`exchange:${code}`);
        return { error: null };
      },
      setSession: async (s: { access_token: string; refresh_token: string }) => {
        calls.push(`set:${s.access_token}:${s.refresh_token}`);
        return { error: s.access_token === 'bad' ? new Error('Invalid JWT signature') : null };
      },
    };
    await completeAuthCallback({ kind: 'code', code: 'c1' }, client);
    await completeAuthCallback({ kind: 'session', accessToken: 'a', refreshToken: 'r' }, client);
    expect(calls).toEqual(['exchange:c1', 'set:a:r']);
    await expect(
      completeAuthCallback({ kind: 'session', accessToken: 'bad', refreshToken: 'r' }, client),
    ).rejects.toThrow('Invalid JWT signature');
    await expect(completeAuthCallback({ kind: 'error', message: 'Link expired' }, client)).rejects.toThrow(
      'Link expired',
    );
  });
});
