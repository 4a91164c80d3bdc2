import { describe, expect, it } from 'vitest';
import { connectionReturn } from './connection-return.ts';

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
});
