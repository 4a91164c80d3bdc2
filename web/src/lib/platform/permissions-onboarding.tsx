import { useState } from 'react';
import { Modal } from '../../components/modal.tsx';
import { geolocation } from '../geolocation.ts';
import { platform } from './index.ts';

const STEPS = {
  1: {
    title: 'Track runs with GPS',
    text: 'StrideStake measures the distance of the runs you track, so they count toward your weekly goal.',
    allow: 'Allow Location',
  },
  2: {
    title: 'Stay on track',
    text: 'Get a reminder before your goal starts, a mid-week update and a nudge before your week ends.',
    allow: 'Allow Notifications',
  },
} as const;

/**
 * The permissions onboarding after sign-in on native (§4): location (step 1 of 2), then notifications (step 2 of 2).
 * Either step may be skipped; closing it counts as done, so it is not shown again to this user.
 */
export function PermissionsOnboarding({
  onDone,
  onPushAllowed,
}: {
  readonly onDone: () => void;
  readonly onPushAllowed: () => void;
}) {
  const [step, setStep] = useState<1 | 2>(1);
  const [busy, setBusy] = useState(false);
  const copy = STEPS[step];

  const allow = async () => {
    setBusy(true);
    if (step === 1) {
      await geolocation()
        .requestPermission()
        .catch(() => null);
      setBusy(false);
      setStep(2);
      return;
    }
    const permission = await platform()
      .push.requestPermission()
      .catch(() => null);
    setBusy(false);
    if (permission === 'granted') onPushAllowed();
    onDone();
  };
  const skip = () => (step === 1 ? setStep(2) : onDone());

  return (
    <Modal title={copy.title} onClose={onDone}>
      <p className="eyebrow">Step {step} of 2</p>
      <p className="muted">{copy.text}</p>
      <div className="wizard-actions">
        <button type="button" className="button ghost" onClick={skip} disabled={busy}>
          Not now
        </button>
        <button type="button" className="button primary" onClick={allow} disabled={busy}>
          {copy.allow}
        </button>
      </div>
    </Modal>
  );
}
