import { useState } from 'react';
import type { GoalType } from '../../../../../domain/goal/target.ts';
import { targetError } from '../../../../../domain/goal/target.ts';
import { Modal } from '../../../components/modal.tsx';
import { errorMessage } from '../../../lib/api-error.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { useCreateGoal } from '../api/create-goal.ts';
import { useCharities } from '../api/get-charities.ts';
import { saveCharityPreference } from '../api/save-charity-preference.ts';
import { CharityStep } from './charity-step.tsx';
import { GoalStep } from './goal-step.tsx';
import { PaymentStep } from './payment-step.tsx';
import { StakeConfirmStep, StakeStep } from './stake-step.tsx';
import { type WizardStep, nextStep, previousStep, wizardSteps } from './wizard-flow.ts';

const TITLES: Record<WizardStep, string> = {
  goal: 'Set Your Goal',
  stake: 'Add a Stake',
  stakeConfirm: 'Confirm Your Stake',
  payment: 'Payment Method',
  charity: 'Choose a Charity',
};

/** Where the runner is in the wizard: a free goal has three steps, a staked one five. */
function WizardProgress({ step, stakeCents }: { readonly step: WizardStep; readonly stakeCents: number }) {
  const steps = wizardSteps(stakeCents);
  const at = steps.indexOf(step);
  return (
    <div className="wizard-progress">
      <span className="muted small">
        Step {at + 1} of {steps.length}
      </span>
      <span className="wizard-dots" aria-hidden="true">
        {steps.map((s, i) => (
          <span key={s} className={i <= at ? 'dot done' : 'dot'} />
        ))}
      </span>
    </div>
  );
}

/** The create-goal wizard (§2): goal → stake → [stakeConfirm → payment] → charity; the submit closes it. */
export function CreateGoalWizard({
  start,
  onClose,
}: {
  readonly start: 'this_week' | 'next_week';
  readonly onClose: () => void;
}) {
  const unit = useDistanceUnit();
  const [step, setStep] = useState<WizardStep>('goal');
  const [type, setType] = useState<GoalType>('distance');
  const [target, setTarget] = useState('');
  const [targetMessage, setTargetMessage] = useState<string | null>(null);
  const [stakeCents, setStakeCents] = useState(0);
  const [paymentMethodId, setPaymentMethodId] = useState<string | null>(null);
  const [charityId, setCharityId] = useState<string | null>(null);
  const [remember, setRemember] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const charities = useCharities(stakeCents > 0);
  const create = useCreateGoal();

  const forward = () => {
    if (step === 'goal') {
      const message = targetError(type, Number(target === '' ? Number.NaN : target), unit);
      setTargetMessage(message);
      if (message) return;
    }
    setStep(nextStep(step, stakeCents));
  };

  const chooseStake = (cents: number) => {
    setStakeCents(cents);
    // §5: back to free clears the charity (and the card is no longer needed).
    if (cents === 0) {
      setCharityId(null);
      setRemember(false);
      setPaymentMethodId(null);
    }
  };

  const submit = async () => {
    setSubmitError(null);
    try {
      await create.mutateAsync({
        type,
        target_value: Number(target),
        unit,
        stake_amount_cents: stakeCents,
        charity_id: stakeCents > 0 ? charityId : null,
        payment_method_id: stakeCents > 0 ? paymentMethodId : null,
        start,
      });
      if (stakeCents > 0 && charityId) await saveCharityPreference(charityId, remember).catch(() => undefined);
      onClose();
    } catch (error) {
      setSubmitError(errorMessage(error, 'Failed to create goal'));
    }
  };

  return (
    <Modal
      title={TITLES[step]}
      onClose={onClose}
      footer={
        <>
          {submitError ? (
            <p className="field-error footer-error" role="alert">
              {submitError}
            </p>
          ) : null}
          {step === 'goal' ? (
            <button type="button" className="button ghost" onClick={onClose}>
              Cancel
            </button>
          ) : (
            <button type="button" className="button ghost" onClick={() => setStep(previousStep(step, stakeCents))}>
              Back
            </button>
          )}
          {step === 'charity' ? (
            <button type="button" className="button primary" disabled={create.isPending} onClick={submit}>
              {create.isPending ? 'Creating…' : 'Create Goal'}
            </button>
          ) : step === 'payment' ? null : (
            <button type="button" className="button primary" onClick={forward}>
              Next
            </button>
          )}
        </>
      }
    >
      <WizardProgress step={step} stakeCents={stakeCents} />
      {step === 'goal' ? (
        <GoalStep
          start={start}
          type={type}
          target={target}
          unit={unit}
          error={targetMessage}
          onType={(t) => {
            setType(t);
            setTargetMessage(null);
          }}
          onTarget={setTarget}
        />
      ) : null}
      {step === 'stake' ? <StakeStep stakeCents={stakeCents} onStake={chooseStake} /> : null}
      {step === 'stakeConfirm' ? <StakeConfirmStep stakeCents={stakeCents} start={start} /> : null}
      {step === 'payment' ? (
        <PaymentStep
          onSaved={(id) => {
            setPaymentMethodId(id);
            setStep('charity');
          }}
        />
      ) : null}
      {step === 'charity' ? (
        <CharityStep
          stakeCents={stakeCents}
          charities={charities.data ?? []}
          charityId={charityId}
          remember={remember}
          onCharity={(id) => {
            setCharityId(id);
            if (!id) setRemember(false);
          }}
          onRemember={setRemember}
        />
      ) : null}
    </Modal>
  );
}
