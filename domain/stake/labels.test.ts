import { describe, expect, it } from 'vitest';
import { publicStakeStatus, stakeLabel } from './labels.ts';

describe('stake labels (§4)', () => {
  it('reads as the spec says, with Forfeited decided for a missed goal’s stake (lost)', () => {
    expect(
      ['succeeded', 'refunded', 'forfeited', 'active', 'pending', 'lost', 'uncollectible', 'weird'].map(stakeLabel),
    ).toEqual(['Refunded', 'Refunded', 'Forfeited', 'Active', 'Pending', 'Forfeited', 'Not charged', 'Pending']);
  });

  it('maps internal states to the spec statuses', () => {
    expect(publicStakeStatus('unsecured')).toBe('active');
    expect(publicStakeStatus('charge_failed')).toBe('pending');
    expect(publicStakeStatus('lost')).toBe('lost');
  });
});
