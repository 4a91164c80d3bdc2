import { Temporal } from 'temporal-polyfill';
import { goalSettlesAt } from '../shared/settlement.ts';
import { holdUnusableFrom } from './policy.ts';
import type { Hold } from './state.ts';

/**
 * How long an appealed stake may wait for its decision after the week may be settled. An operator has two days; a
 * stake whose hold outlives that is decided earlier (below).
 */
export const APPEAL_REVIEW_WINDOW = { hours: 48 } as const;

/**
 * How long before a live hold becomes unusable (policy.ts) an undecided appeal is decided for the runner: the
 * settlement that may follow a refusal needs time to capture, and a capture must never run into the deadline.
 */
export const APPEAL_DECISION_MARGIN = { hours: 6 } as const;

/** How long after a collection evidence that completes the week refunds the stake by itself (issue 25). */
export const LATE_EVIDENCE_DAYS = 7;

/** The moment a staked week may be appealed: 00:00 on its last day (Sunday) in the goal's zone. */
export function appealOpensAt(weekStart: string, timeZone: string): Temporal.Instant {
  return Temporal.PlainDate.from(weekStart).add({ days: 6 }).toZonedDateTime({ timeZone }).toInstant();
}

/**
 * Until when settlement waits for an appeal's decision: two days after the week may be settled, and never later
 * than the margin before a live hold becomes unusable (when the hold outlives the settlement: a hold that lapses
 * first is replaced by an off-session charge anyway, FACTS "card holds expire"). Never before `now`.
 */
export function appealDecideBy(
  terms: { readonly weekStart: string; readonly timeZone: string },
  hold: Hold | null,
  now: Temporal.Instant,
): Temporal.Instant {
  const settles = goalSettlesAt(terms.weekStart, terms.timeZone);
  let by = settles.add(APPEAL_REVIEW_WINDOW);
  if (hold !== null) {
    const holdLimit = holdUnusableFrom(Temporal.Instant.from(hold.captureBefore)).subtract(APPEAL_DECISION_MARGIN);
    if (Temporal.Instant.compare(holdLimit, settles) > 0 && Temporal.Instant.compare(holdLimit, by) < 0) by = holdLimit;
  }
  return Temporal.Instant.compare(by, now) < 0 ? now : by;
}

/** Whether late evidence may still refund a stake collected at `collectedAt`. */
export function lateEvidenceWindowOpen(collectedAt: string, now: Temporal.Instant): boolean {
  const closes = Temporal.Instant.from(collectedAt).add({ hours: 24 * LATE_EVIDENCE_DAYS });
  return Temporal.Instant.compare(now, closes) <= 0;
}
