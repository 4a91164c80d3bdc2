import { describe, expect, it } from 'vitest';
import { connectionReturnPath, NATIVE_CONNECTION_RETURN } from './auth-callback-url.ts';

describe('the connection-return deep link', () => {
  it('opens the connected-apps page with the hand-over in its fragment', () => {
    expect(connectionReturnPath(`${NATIVE_CONNECTION_RETURN}#provider=strava&code=c&state=s&scope=read`)).toBe(
      '/connected-apps#provider=strava&code=c&state=s&scope=read',
    );
    expect(connectionReturnPath(`${NATIVE_CONNECTION_RETURN}?error=access_denied`)).toBe(
      '/connected-apps?error=access_denied',
    );
  });

  it('is compared by parts, never by prefix', () => {
    for (const url of [
      'stridestake://connected-apps.evil/#code=c',
      'stridestake://connected-appsx#code=c',
      'stridestake://user@connected-apps#code=c',
      'stridestake://connected-apps/elsewhere#code=c',
      'https://connected-apps#code=c',
      'stridestake://auth/callback?code=c',
      'not a url',
    ]) {
      expect(connectionReturnPath(url), url).toBeNull();
    }
  });
});
