import type { GoalType } from '../../../../../domain/goal/target.ts';
import type { DistanceUnit } from '../../../../../domain/shared/units.ts';

/** Step 1: the goal type and target; the target's step is 0.1 for distance and 1 for a count (§5). */
export function GoalStep({
  start,
  type,
  target,
  unit,
  error,
  onType,
  onTarget,
}: {
  /** The week the goal is for: the copy says which. */
  readonly start: 'this_week' | 'next_week';
  readonly type: GoalType;
  readonly target: string;
  readonly unit: DistanceUnit;
  readonly error: string | null;
  readonly onType: (t: GoalType) => void;
  readonly onTarget: (v: string) => void;
}) {
  const week = start === 'next_week' ? 'next week' : 'this week';
  return (
    <div className="wizard-step">
      <p className="muted">What do you want to achieve {week}?</p>
      <fieldset className="choice-row">
        <legend className="visually-hidden">Goal type</legend>
        {(['distance', 'count'] as const).map((t) => (
          <button
            key={t}
            type="button"
            aria-pressed={type === t}
            className={type === t ? 'choice active' : 'choice'}
            onClick={() => onType(t)}
          >
            <strong>{t === 'distance' ? 'Distance' : 'Number of runs'}</strong>
            <span className="muted small">{t === 'distance' ? `Total ${unit} ${week}` : `Runs ${week}`}</span>
          </button>
        ))}
      </fieldset>
      <label>
        {type === 'distance' ? `Target (${unit})` : 'Target (runs)'}
        <input
          type="number"
          inputMode="decimal"
          min={0}
          step={type === 'distance' ? 0.1 : 1}
          value={target}
          onChange={(e) => onTarget(e.target.value)}
          aria-invalid={error !== null}
          aria-describedby="target-error"
        />
      </label>
      {error ? (
        <p id="target-error" className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
