import { captureCountdownText, HOLD_STEP_LABELS, holdIsLive } from '../../../../../domain/stake/hold-timeline.ts';
import type { Stake } from '../../../lib/api-types.ts';
import { useNow } from '../use-now.ts';
import './hold-timeline.css';

/** A stake's timeline; absent for the demo's sample stakes, which have no money history. */
type HoldProps = { readonly hold: Stake['hold'] | undefined; readonly timeZone: string };

/** An instant as the runner reads it in their zone: "Mon, Nov 30, 12:00 AM". */
export function whenInZone(iso: string, timeZone: string): string {
  return new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  });
}

/**
 * The card's capture deadline while a hold is live: "Capture before Mon, Dec 7, 12:00 AM · 6 days 23 hours left".
 * The deadline is the provider's (a hold lapses after it); null when no hold is on the card.
 */
export function CaptureDeadline({ hold, timeZone }: HoldProps) {
  const now = useNow();
  if (!hold || !holdIsLive(hold) || hold.capture_before === null) return null;
  return (
    <span className="capture-deadline small">
      Capture before {whenInZone(hold.capture_before, timeZone)} · {captureCountdownText(hold.capture_before, now)}
    </span>
  );
}

/** The stake's hold as a timeline (issue 25.1): each step, when, and why; the deadline as a countdown. */
export function HoldTimeline({ hold, timeZone }: HoldProps) {
  if (!hold || hold.steps.length === 0) return null;
  return (
    <div className="hold-timeline">
      <CaptureDeadline hold={hold} timeZone={timeZone} />
      <ol aria-label="Hold timeline">
        {hold.steps.map((step) => (
          <li key={`${step.kind}-${step.at}`} className={`hold-step hold-step-${step.kind}`}>
            <span className="hold-step-head small">
              <strong>{HOLD_STEP_LABELS[step.kind]}</strong>{' '}
              <time dateTime={step.at} className="muted">
                {whenInZone(step.at, timeZone)}
              </time>
            </span>
            <span className="hold-step-reason small">{step.reason}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}
