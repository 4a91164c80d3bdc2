/** A famous distance a week's total can reach (§2 goal stats). */
export interface Milestone {
  readonly key: 'marathon' | 'half_marathon' | '10k' | '5k' | 'two_miles' | 'one_mile';
  readonly km: number;
  readonly text: string;
}

/** The milestones of §2, longest first; the stats screen shows the longest one reached. */
export const MILESTONES: readonly Milestone[] = [
  { key: 'marathon', km: 42.195, text: 'You ran a marathon distance this week!' },
  { key: 'half_marathon', km: 21.0975, text: 'You ran a half marathon distance this week!' },
  { key: '10k', km: 10, text: 'You ran a 10K distance this week!' },
  { key: '5k', km: 5, text: 'You ran a 5K distance this week!' },
  { key: 'two_miles', km: 3.2, text: 'You ran 2 miles this week!' },
  { key: 'one_mile', km: 1.609, text: 'You ran a mile this week!' },
];

/** What the stats screen says below one mile, so the card is never empty. */
export const NO_MILESTONE_TEXT = 'Every step counts. Your first mile is within reach!';

/** The longest milestone a total distance reaches, or null below a mile. */
export function milestoneFor(totalKm: number): Milestone | null {
  // Compare in metres (integers): 42.195 and 1.609 have 3 decimals and floats would wobble at the boundary.
  const metres = Math.round(totalKm * 1000);
  return MILESTONES.find((m) => metres >= Math.round(m.km * 1000)) ?? null;
}

/** The milestone text for a week's total distance. */
export function milestoneText(totalKm: number): string {
  return milestoneFor(totalKm)?.text ?? NO_MILESTONE_TEXT;
}
