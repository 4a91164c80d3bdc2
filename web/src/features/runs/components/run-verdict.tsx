import { stakeCountSentence } from '../../../../../domain/run/verdict-words.ts';
import type { RunVerification } from '../../../lib/api-types.ts';
import { useDistanceUnit } from '../../../lib/distance-unit.ts';

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
export function RunVerdict({ verification }: { readonly verification: RunVerification | undefined }) {
  const unit = useDistanceUnit();
  if (!verification) return null;
  const sentence = stakeCountSentence(
    {
      claimedKm: verification.claimed_distance_km,
      stakeKm: verification.stake_distance_km,
      reasons: verification.reasons,
      excluded: verification.excluded,
      outrankedBy: verification.counted_instead
        ? { runId: verification.counted_instead.run_id, rule: verification.counted_instead.rule }
        : null,
    },
    unit,
  );
  const { stake_distance_km: stake, claimed_distance_km: claimed } = verification;
  const tone = stake <= 0 && claimed > 0 ? TONES.none : stake < claimed ? TONES.part : TONES.all;
  return (
    <span className={`run-verdict ${tone.className}`}>
      <span className="run-verdict-label">{tone.label}</span> {sentence}
    </span>
  );
}
