import { describe, expect, it } from 'vitest';
import {
  canAskForVouch,
  NOT_YOURS_TO_VOUCH,
  shareableOrigin,
  vouchLink,
  vouchPath,
  vouchRefusalText,
} from './vouch-link.ts';

describe('the vouch link', () => {
  it('is the vouch page on the web app, its stake id escaped', () => {
    expect(vouchPath('stake-1')).toBe('/vouch/stake-1');
    expect(vouchPath('a/b?c')).toBe('/vouch/a%2Fb%3Fc');
    expect(vouchLink('stake-1', 'https://app.example')).toBe('https://app.example/vouch/stake-1');
    expect(vouchLink('stake-1', null)).toBeNull();
  });

  it('on the web, uses the page’s own origin', () => {
    expect(shareableOrigin('web', 'http://127.0.0.1:5173', 'http://127.0.0.1:5173/api')).toBe('http://127.0.0.1:5173');
    expect(shareableOrigin('web', 'https://app.example', 'https://api.example')).toBe('https://app.example');
  });

  it('in the native shell, never the WebView’s origin: the web app’s only when the API is served under its /api', () => {
    expect(shareableOrigin('ios', 'capacitor://localhost', 'https://app.example/api')).toBe('https://app.example');
    expect(shareableOrigin('android', 'https://localhost', 'https://app.example/api/')).toBe('https://app.example');
    expect(shareableOrigin('android', 'https://localhost', 'https://api.example.com')).toBeNull();
    expect(shareableOrigin('ios', 'capacitor://localhost', 'http://localhost:3001')).toBeNull();
    expect(shareableOrigin('ios', 'capacitor://localhost', 'not a url')).toBeNull();
  });
});

describe('asking for a vouch', () => {
  it('is offered while the appeal waits for a decision, and only then', () => {
    const appeal = (status: 'open' | 'referred' | 'accepted' | 'refused') => ({
      appeal: { status, decide_by: '2026-11-25T05:00:00.000Z', vouches: 0 },
    });
    expect(canAskForVouch(appeal('open'))).toBe(true);
    expect(canAskForVouch(appeal('referred'))).toBe(true);
    expect(canAskForVouch(appeal('accepted'))).toBe(false);
    expect(canAskForVouch(appeal('refused'))).toBe(false);
    expect(canAskForVouch({ appeal: null })).toBe(false);
    // The demo's sample stakes have no appeal field at all.
    expect(canAskForVouch({})).toBe(false);
  });
});

describe('a refused vouch', () => {
  it('explains the 404 without saying whether the stake exists; other refusals keep the server’s sentence', () => {
    expect(vouchRefusalText(404, 'Stake not found')).toBe(NOT_YOURS_TO_VOUCH);
    expect(vouchRefusalText(409, 'You have already vouched for this run')).toBe(
      'You have already vouched for this run',
    );
    expect(vouchRefusalText(400, 'You cannot vouch for your own stake')).toBe('You cannot vouch for your own stake');
  });
});
