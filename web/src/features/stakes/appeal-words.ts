import { addDays } from '../../../../domain/gamification/dates.ts';
import { formatDollars } from '../../../../domain/shared/money.ts';
import type { AppealReason } from '../../../../domain/stake/appeal-events.ts';
import type { Run, Stake } from '../../lib/api-types.ts';

/** The appeal form's reasons in the runner's own words, in the order the server lists them (APPEAL_REASONS). */
export const APPEAL_REASON_CHOICES: Readonly<Record<AppealReason, string>> = {
  uploaded_late: 'Uploaded late',
  no_signal: 'No signal',
  gps_gap: 'GPS gap',
  watch_file: 'Watch file',
  health_workout: 'Health app workout',
  vouch: 'A group member saw me',
};

/** The longest note the server takes (domain/validation/stake-appeal.ts). */
export const APPEAL_NOTE_MAX = 500;
/** The most runs one appeal may name (same schema). */
export const APPEAL_RUNS_MAX = 20;

/** The appeal and refund of a stake; absent on the demo's sample stakes, which have no money history. */
type AppealFields = Partial<Pick<Stake, 'appeal' | 'appealable' | 'refund'>>;

/** A date-time as the runner reads it in their zone: "Mon, Nov 23, 3:00 AM". */
const when = (iso: string, timeZone: string) =>
  new Date(iso).toLocaleString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
  });

/**
 * Where the runner's appeal stands, in one line under the stake: waiting ones say until when the decision may take
 * (settlement waits for it, and an undecided appeal goes to the runner then); decided ones say how it ended.
 */
export function appealStatusText(stake: AppealFields, timeZone: string): string | null {
  const appeal = stake.appeal;
  if (!appeal) return null;
  const vouches =
    appeal.vouches > 0 ? ` · ${appeal.vouches} group ${appeal.vouches === 1 ? 'member' : 'members'} vouched` : '';
  switch (appeal.status) {
    case 'open':
      return `Appeal sent · decided by ${when(appeal.decide_by, timeZone)}${vouches}`;
    case 'referred':
      return `Appeal under review · decided by ${when(appeal.decide_by, timeZone)}${vouches}`;
    case 'accepted':
      return 'Appeal accepted: nothing is taken.';
    case 'refused':
      return 'Appeal refused.';
    default:
      return null;
  }
}

/** A refund given for late evidence (issue 25.3), as the card says it. */
export function refundText(stake: AppealFields): string | null {
  const refund = stake.refund;
  if (!refund) return null;
  const amount = formatDollars(refund.amount_cents, { alwaysCents: true });
  return refund.status === 'done'
    ? `${amount} refunded to your card: a run of that week completed your goal.`
    : `${amount} is being refunded to your card: a run of that week completed your goal.`;
}

/** Whether a stake waits for a decision the runner is watching for: an appeal not yet decided, a refund on its way. */
export const awaitsDecision = (stake: AppealFields): boolean =>
  stake.appeal?.status === 'open' || stake.appeal?.status === 'referred' || stake.refund?.status === 'requested';

/** Whether the Stakes tab offers "Appeal" on a stake (the server says when: from the week's last day, once). */
export const canAppeal = (stake: AppealFields): boolean => stake.appealable === true;

/** The calendar day a run started on in `timeZone` ('2026-11-21'). */
export function dayInZone(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

/** Whether a run started inside the staked week (Monday `weekStart` to its Sunday, in the goal's zone). */
export function inStakeWeek(run: Pick<Run, 'started_at'>, weekStart: string, timeZone: string): boolean {
  const day = dayInZone(run.started_at, timeZone);
  return weekStart <= day && day <= addDays(weekStart, 6);
}

/** Far enough below a metre that rounding never reads as a difference. */
const KM_EPSILON = 0.0005;

/**
 * A run the appeal can point to: it counted for XP (or free goals) more than for the stake, because it was uploaded
 * late, had gaps, or lacked a live track (the run policy, docs/run-policy.md).
 */
export function leftOutOfStake(run: Pick<Run, 'verification'>): boolean {
  const v = run.verification;
  return v.xp_distance_km - v.stake_distance_km > KM_EPSILON;
}

/** The instant from which GET /runs lists a week's runs: a day before its Monday, so no zone loses a run. */
export const weekRunsSince = (weekStart: string): string => `${addDays(weekStart, -1)}T00:00:00.000Z`;
