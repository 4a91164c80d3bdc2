import { describe, expect, it } from 'vitest';
import { wizardSteps } from './wizard-flow.ts';

describe('wizardSteps', () => {
  it('has five steps with money staked and three for a free goal (§2)', () => {
    expect(wizardSteps(1_000)).toEqual(['goal', 'stake', 'stakeConfirm', 'payment', 'charity']);
    expect(wizardSteps(0)).toEqual(['goal', 'stake', 'charity']);
  });
});
