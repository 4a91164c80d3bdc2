import { type CountedToward, stakeCountSentence } from '../../../../../domain/run/verdict-words.ts';
import type { GoalHistoryItem, RunVerification } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';
import { useGoals } from '../../../lib/goals-query.ts';

/** The run's calendar day in a goal's time zone ('2026-11-25'), to find the goal of its week. */
function dayIn(startedAt: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
      new Date(startedAt),
    );
  } catch {
    return startedAt.slice(0, 10);
  }
}

/** What a run started at `startedAt` counts toward: its week's goal, staked or free; null in a week without one. */
export function countedToward(goals: readonly GoalHistoryItem[], startedAt: string): CountedToward {
  const goal = goals.find((g) => {
    if (g.status === 'canceled') return false;
    const day = dayIn(startedAt, g.time_zone);
    return g.period_start <= day && day <= g.period_end;
  });
  if (!goal) return null;
  return goal.stake_amount_cents > 0 ? 'stake' : 'goal';
}

/** The label says what the run counts toward a stake; its colour follows (the classes of the verdicts). */
const TONES = {
  all: { label: 'Verified', className: 'verified' },
  part: { label: 'Partly counted', className: 'suspicious' },
  none: { label: 'Not counted', className: 'rejected' },
} as const;

/**
 * What the run policy made of a run, in plain words and the user's unit: "Counted 4.80 of 5.00 km toward your
 * stake: a GPS gap of 6 min was left out" (domain/run/verdict-words.ts, the sentence the API also sends).
 */
export function RunVerdict({
  verification,
  startedAt,
}: {
  readonly verification: RunVerification | undefined;
  readonly startedAt: string;
}) {
  const unit = useDistanceUnit();
  const goals = useGoals();
  if (!verification) return null;
  // A stake is spoken of only when the run's week has one; a free goal counts the XP distance (counting.ts).
  const toward = goals.data ? countedToward(goals.data, startedAt) : null;
  const counted = toward === 'stake' ? verification.stake_distance_km : verification.xp_distance_km;
  const sentence = stakeCountSentence(
    {
      claimedKm: verification.claimed_distance_km,
      stakeKm: counted,
      reasons: verification.reasons,
      excluded: verification.excluded,
      outrankedBy: verification.counted_instead
        ? { runId: verification.counted_instead.run_id, rule: verification.counted_instead.rule }
        : null,
    },
    unit,
    toward,
  );
  const claimed = verification.claimed_distance_km;
  const tone = counted <= 0 && claimed > 0 ? TONES.none : counted < claimed ? TONES.part : TONES.all;
  return (
    <span className={`run-verdict ${tone.className}`}>
      <span className="run-verdict-label">{tone.label}</span> {sentence}
    </span>
  );
}
