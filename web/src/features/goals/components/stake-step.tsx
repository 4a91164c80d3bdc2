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

/**
 * Step 3 (staked goals only): what happens to the money, as the server does it (README "Money"): the hold goes on when
 * the goal's week starts, so an upcoming goal holds nothing yet and can be canceled for free.
 */
export function StakeConfirmStep({
  stakeCents,
  start,
}: {
  readonly stakeCents: number;
  readonly start: 'this_week' | 'next_week';
}) {
  const upcoming = start === 'next_week';
  return (
    <div className="wizard-step">
      <h3>{formatDollars(stakeCents)} on the line</h3>
      <ul className="plain-list">
        <li>
          {upcoming
            ? 'We place an authorization hold on your card when your goal’s week starts on Monday. Nothing is held before.'
            : 'We place an authorization hold on your card right away: this week has already started.'}
        </li>
        <li>Meet your goal and the hold is released — you pay nothing.</li>
        <li>
          Miss it, or cancel once its week has started, and the stake is captured: 80% to your charity, 20% service fee.
        </li>
        {upcoming ? <li>Cancel before Monday and you forfeit nothing.</li> : null}
        <li>Settlement happens Monday 00:00 Eastern after the week ends.</li>
      </ul>
    </div>
  );
}
