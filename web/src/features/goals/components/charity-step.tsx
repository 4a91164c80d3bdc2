import type { Charity } from '../../../lib/api-types.ts';

/**
 * Step 5: the charity (only when money is staked, §5), the remember-preference checkbox (only when a charity is
 * selected), and Create Goal, which the wizard renders.
 */
export function CharityStep({
  stakeCents,
  charities,
  charityId,
  remember,
  onCharity,
  onRemember,
}: {
  readonly stakeCents: number;
  readonly charities: readonly Charity[];
  readonly charityId: string | null;
  readonly remember: boolean;
  readonly onCharity: (id: string | null) => void;
  readonly onRemember: (r: boolean) => void;
}) {
  if (stakeCents === 0) {
    return (
      <div className="wizard-step">
        <p className="muted">Free goals don’t need a charity. You can add a stake to next week’s goal.</p>
      </div>
    );
  }
  return (
    <div className="wizard-step">
      <p className="muted">If you miss your goal, 80% of your stake goes to:</p>
      <fieldset className="charity-list">
        <legend className="visually-hidden">Charity</legend>
        {charities.map((c) => (
          <button
            key={c.id}
            type="button"
            aria-pressed={charityId === c.id}
            className={charityId === c.id ? 'choice active' : 'choice'}
            onClick={() => onCharity(charityId === c.id ? null : c.id)}
          >
            <strong>{c.name}</strong>
            {c.description ? <span className="muted small">{c.description}</span> : null}
          </button>
        ))}
      </fieldset>
      {charityId ? (
        <label className="checkbox">
          <input type="checkbox" checked={remember} onChange={(e) => onRemember(e.target.checked)} />
          Remember this charity for next time
        </label>
      ) : null}
    </div>
  );
}
