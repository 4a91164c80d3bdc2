import { describe, expect, it } from 'vitest';
import { tabOf } from './bottom-nav.tsx';

describe('tabOf', () => {
  it('highlights the tab a screen sits under', () => {
    expect(tabOf('/app')).toBe('/app');
    expect(tabOf('/run')).toBe('/run');
    expect(tabOf('/run-history')).toBe('/run');
    expect(tabOf('/runs/abc')).toBe('/run');
    expect(tabOf('/goals/g1/stats')).toBe('/goals');
    expect(tabOf('/groups/g1')).toBe('/groups');
    expect(tabOf('/xp-guide')).toBe('/profile');
    expect(tabOf('/stakes/stake-1/receipt')).toBe('/profile');
    expect(tabOf('/connected-apps')).toBe('/profile');
    expect(tabOf('/profile')).toBe('/profile');
    expect(tabOf('/')).toBeNull();
    expect(tabOf('/runsomething')).toBeNull();
  });
});
