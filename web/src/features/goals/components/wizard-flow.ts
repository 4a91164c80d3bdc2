/** The create-goal wizard's steps, in order (§2). */
export type WizardStep = 'goal' | 'stake' | 'stakeConfirm' | 'payment' | 'charity';

/** Forward: stakeConfirm, payment and charity when money is staked, else straight to charity (§2). */
export function nextStep(step: WizardStep, stakeCents: number): WizardStep {
  switch (step) {
    case 'goal':
      return 'stake';
    case 'stake':
      return stakeCents > 0 ? 'stakeConfirm' : 'charity';
    case 'stakeConfirm':
      return 'payment';
    case 'payment':
      return 'charity';
    case 'charity':
      return 'charity';
    default: {
      const never: never = step;
      return never;
    }
  }
}

/** Back: charity → payment (staked) or stake (free); payment → stakeConfirm (§2). */
export function previousStep(step: WizardStep, stakeCents: number): WizardStep {
  switch (step) {
    case 'goal':
      return 'goal';
    case 'stake':
      return 'goal';
    case 'stakeConfirm':
      return 'stake';
    case 'payment':
      return 'stakeConfirm';
    case 'charity':
      return stakeCents > 0 ? 'payment' : 'stake';
    default: {
      const never: never = step;
      return never;
    }
  }
}

/** The steps a goal with this stake goes through, in order (§2): five with money staked, three for a free goal. */
export function wizardSteps(stakeCents: number): WizardStep[] {
  const steps: WizardStep[] = ['goal'];
  while (steps[steps.length - 1] !== 'charity') steps.push(nextStep(steps[steps.length - 1]!, stakeCents));
  return steps;
}
