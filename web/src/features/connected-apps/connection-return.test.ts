import { describe, expect, it } from 'vitest';
import { connectionHandOver, connectionReturn, returnErrorMessage } from './connection-return.ts';

const back = (query: string) => connectionReturn(new URLSearchParams(query));

describe('the connected apps return messages', () => {
  it('names the connected service and the 30-day backfill', () => {
    expect(back('success=strava')).toEqual({
      tone: 'success',
      message: 'Strava connected! Importing your runs from the last 30 days.',
    });
  });

  it('answers each error with its own message, and anything else with the generic one', () => {
    expect(back('error=access_denied')).toEqual({ tone: 'error', message: 'Access was denied. Please try again.' });
    expect(back('error=callback_failed')).toEqual({ tone: 'error', message: 'Connection failed. Please try again.' });
    expect(back('error=invalid_request')?.message).toBe('The connection request was incomplete. Please try again.');
    expect(back('error=invalid_state')?.message).toBe(
      'The connection request expired or did not start here. Please connect again.',
    );
    for (const odd of ['error=server_error', 'error=', 'error=toString', 'error=__proto__']) {
      expect(back(odd)).toEqual({ tone: 'error', message: 'An error occurred' });
    }
  });

  it('says nothing on a plain visit', () => {
    expect(back('')).toBeNull();
    expect(back('tab=x')).toBeNull();
  });

  it("reads the callback's hand-over from the fragment, and nothing from an incomplete one", () => {
    expect(connectionHandOver('#provider=strava&code=c1&state=s1&scope=read%2Cactivity%3Aread')).toEqual({
      provider: 'strava',
      code: 'c1',
      state: 's1',
      scope: 'read,activity:read',
    });
    expect(connectionHandOver('#provider=strava&code=c1&state=s1')?.scope).toBe('');
    for (const hash of ['', '#', '#provider=strava&code=c1', '#code=c1&state=s1', '#provider=strava&state=s1']) {
      expect(connectionHandOver(hash)).toBeNull();
    }
  });

  it("words a refused completion by its code, like the callback's errors", () => {
    expect(returnErrorMessage('invalid_state').message).toBe(
      'The connection request expired or did not start here. Please connect again.',
    );
    expect(returnErrorMessage(null)).toEqual({ tone: 'error', message: 'An error occurred' });
  });
});
