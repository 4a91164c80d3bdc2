import { STAKE_OPTIONS_CENTS, formatDollars } from '../../../../../domain/shared/money.ts';

/** Step 2: the stake, from the §9 options including free. */
export function StakeStep({
  stakeCents,
  onStake,
}: {
  readonly stakeCents: number;
  readonly onStake: (c: number) => void;
}) {
  return (
    <div className="wizard-step">
      <p className="muted">Money on the line keeps you honest. Hit your goal and the hold is released.</p>
      <fieldset className="stake-grid">
        <legend className="visually-hidden">Stake</legend>
        {STAKE_OPTIONS_CENTS.map((cents) => (
          <button
            key={cents}
            type="button"
            aria-pressed={stakeCents === cents}
            className={stakeCents === cents ? 'choice active' : 'choice'}
            onClick={() => onStake(cents)}
          >
            <strong>{cents === 0 ? 'Free' : formatDollars(cents)}</strong>
          </button>
        ))}
      </fieldset>
    </div>
  );
}

/** Step 3 (staked goals only): what happens to the money. */
export function StakeConfirmStep({ stakeCents }: { readonly stakeCents: number }) {
  return (
    <div className="wizard-step">
      <h3>{formatDollars(stakeCents)} on the line</h3>
      <ul className="plain-list">
        <li>We place an authorization hold on your card when the goal is created.</li>
        <li>Meet your goal and the hold is released — you pay nothing.</li>
        <li>Miss it (or cancel) and the stake is captured: 80% to your charity, 20% service fee.</li>
        <li>Settlement happens Monday 00:00 Eastern after the week ends.</li>
      </ul>
    </div>
  );
}
