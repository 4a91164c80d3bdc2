import { formatDollars } from '../shared/money.ts';
import type { AppealDecider, AppealReason } from './appeal-events.ts';
import type { StakeEvent } from './events.ts';

/** What happened to a stake's money, one step per event that touched it. */
export type HoldStepKind =
  | 'placed'
  | 'hold_failed'
  | 'expired'
  | 'released'
  | 'capture_requested'
  | 'captured'
  | 'charge_failed'
  | 'written_off'
  | 'refunded'
  | 'appealed'
  | 'vouched'
  | 'appeal_referred'
  | 'appeal_accepted'
  | 'appeal_refused'
  | 'refund_requested';

/** Each step's name as the Stakes tab shows it. */
export const HOLD_STEP_LABELS: Readonly<Record<HoldStepKind, string>> = {
  placed: 'Hold placed',
  hold_failed: 'Hold refused',
  expired: 'Hold expired',
  released: 'Hold released',
  capture_requested: 'Capture requested',
  captured: 'Captured',
  charge_failed: 'Charge failed',
  written_off: 'Written off',
  refunded: 'Refunded to your card',
  appealed: 'Appeal sent',
  vouched: 'Vouched for',
  appeal_referred: 'Appeal under review',
  appeal_accepted: 'Appeal accepted',
  appeal_refused: 'Appeal refused',
  refund_requested: 'Refund requested',
};

/** One step of the timeline: when, and why, in the runner's words. */
export interface HoldStep {
  readonly kind: HoldStepKind;
  readonly at: string;
  readonly reason: string;
}

/**
 * A stake's hold as the runner follows it (GET /stakes `hold`, the Stakes tab, the goal card). Instants are ISO
 * strings; `capture_before` is the provider's deadline for capturing the hold (FACTS: card holds expire).
 */
export interface HoldTimeline {
  readonly placed_at: string | null;
  readonly capture_before: string | null;
  readonly expired_at: string | null;
  readonly released_at: string | null;
  readonly captured_at: string | null;
  readonly refunded_at: string | null;
  readonly steps: readonly HoldStep[];
}

/** The timeline before any event. */
export const emptyHoldTimeline: HoldTimeline = {
  placed_at: null,
  capture_before: null,
  expired_at: null,
  released_at: null,
  captured_at: null,
  refunded_at: null,
  steps: [],
};

const dollars = (cents: number) => formatDollars(cents, { alwaysCents: true });

/** The appeal's reason in the runner's words. */
const APPEAL_REASON_WORDS: Readonly<Record<AppealReason, string>> = {
  uploaded_late: 'a run was uploaded late',
  no_signal: 'the phone had no signal',
  gps_gap: 'the GPS left a gap',
  watch_file: 'a watch recorded the run',
  health_workout: 'the phone’s health app recorded the run',
  vouch: 'a group member saw you run',
};

/** Why an appeal was accepted, by who decided it. */
const APPEAL_ACCEPTED_WORDS: Readonly<Record<AppealDecider, string>> = {
  rules: 'Your runs show the missing distance: the appeal is accepted.',
  operator: 'A reviewer accepted your appeal.',
  deadline: 'Your appeal could not be reviewed before the hold’s deadline: it is decided in your favour.',
};

/**
 * The timeline after one more stake event: a pure reducer, folded by the stakes read model and replayable from the
 * log. Events that do not touch the money (opening, requests to charge) add no step of their own, except the
 * capture request, which is the moment the runner's miss was decided.
 */
export function evolveHoldTimeline(timeline: HoldTimeline, event: StakeEvent): HoldTimeline {
  const step = (kind: HoldStepKind, at: string, reason: string, patch: Partial<HoldTimeline> = {}): HoldTimeline => ({
    ...timeline,
    ...patch,
    steps: [...timeline.steps, { kind, at, reason }],
  });
  switch (event.type) {
    case 'StakeHoldPlaced': {
      const d = event.data;
      return step('placed', d.placedAt, 'Your goal is under way: a hold for the stake is placed on your card.', {
        placed_at: d.placedAt,
        capture_before: d.captureBefore,
        expired_at: null,
      });
    }
    case 'StakeHoldFailed':
      return step(
        'hold_failed',
        event.data.failedAt,
        `Your card refused the hold (${event.data.reason}). The stake stands: a missed goal is charged to your card.`,
      );
    case 'StakeHoldExpired':
      return step(
        'expired',
        event.data.expiredAt,
        'The hold reached your card’s deadline and lapsed. A missed goal is charged to your card instead.',
        { expired_at: event.data.expiredAt },
      );
    case 'StakeReleased': {
      const d = event.data;
      const appealed = timeline.steps.some((s) => s.kind === 'appeal_accepted');
      const reason = appealed
        ? 'Your appeal was accepted: the hold is released, nothing is taken.'
        : d.outcome === 'succeeded'
          ? 'You completed your goal: the hold is released, nothing is taken.'
          : 'The goal was canceled before anything was at risk: nothing is taken.';
      return step('released', d.releasedAt, reason, { released_at: d.releasedAt });
    }
    case 'StakeLateHoldReleased':
      return step('released', event.data.releasedAt, 'A hold placed after your goal was settled is released.', {
        released_at: event.data.releasedAt,
      });
    case 'StakeCaptureRequested':
      return step(
        'capture_requested',
        event.data.requestedAt,
        event.data.outcome === 'lost'
          ? 'Your goal’s week ended short of the target: the hold is being captured.'
          : 'You canceled your goal during its week: the hold is being captured.',
      );
    case 'StakeChargeFailed':
      return step(
        'charge_failed',
        event.data.failedAt,
        event.data.failure === 'authentication_required'
          ? 'Your bank asked for authentication: the charge did not go through.'
          : `Your card declined the charge${event.data.declineCode ? ` (${event.data.declineCode})` : ''}.`,
      );
    case 'StakeCollected': {
      const d = event.data;
      const why = d.outcome === 'lost' ? 'You missed your goal' : 'You canceled your goal during its week';
      const how = d.method === 'capture' ? 'captured from the hold' : 'charged to your card';
      const split = d.charityId
        ? `${dollars(d.donationCents)} to your charity, ${dollars(d.feeCents)} service fee`
        : `${dollars(d.feeCents)} service fee (no charity chosen)`;
      return step('captured', d.collectedAt, `${why}: ${dollars(d.capturedCents)} ${how} (${split}).`, {
        captured_at: d.collectedAt,
      });
    }
    case 'StakeWrittenOff':
      return step(
        'written_off',
        event.data.writtenOffAt,
        `Every charge attempt (${event.data.attempts}) failed: nothing was taken.`,
      );
    case 'StakeRefunded': {
      const d = event.data;
      return step('refunded', d.refundedAt, `${dollars(d.refundedCents)} given back to your card: ${d.reason}`, {
        refunded_at: d.refundedAt,
      });
    }
    case 'StakeAppealed':
      return step('appealed', event.data.appealedAt, `You appealed: ${APPEAL_REASON_WORDS[event.data.reason]}.`);
    case 'StakeVouched':
      return step('vouched', event.data.vouchedAt, 'A member of your group vouched that you ran.');
    case 'StakeAppealReferred':
      return step(
        'appeal_referred',
        event.data.referredAt,
        'Your runs do not show the missing distance on their own: a person reviews your appeal. Nothing is taken meanwhile.',
      );
    case 'StakeAppealAccepted':
      return step('appeal_accepted', event.data.acceptedAt, APPEAL_ACCEPTED_WORDS[event.data.decidedBy]);
    case 'StakeAppealRefused':
      return step(
        'appeal_refused',
        event.data.refusedAt,
        `Your appeal was refused${event.data.note ? `: ${event.data.note}` : ''}. The stake is settled as missed.`,
      );
    case 'StakeRefundRequested':
      return step(
        'refund_requested',
        event.data.requestedAt,
        `A run of that week arrived after the capture and completes your goal: ${dollars(event.data.amountCents)} is being refunded.`,
      );
    case 'StakeOpened':
    case 'StakeChargeRequested':
      return timeline;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

/** Whether a hold is on the card right now: placed, and not yet expired, released or captured. */
export function holdIsLive(t: HoldTimeline): boolean {
  return t.placed_at !== null && t.expired_at === null && t.released_at === null && t.captured_at === null;
}

/**
 * The time left until `captureBefore`, as the countdown reads: "6 days 23 hours left", "5 hours 12 minutes left",
 * "12 minutes left", "under a minute left", or "deadline passed". Whole units, rounded down: a countdown never
 * promises time that is not there.
 */
export function captureCountdownText(captureBefore: string, nowMs: number): string {
  const left = Date.parse(captureBefore) - nowMs;
  if (!(left > 0)) return 'deadline passed';
  const minutes = Math.floor(left / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (days > 0) return `${unit(days, 'day')}${hours > 0 ? ` ${unit(hours, 'hour')}` : ''} left`;
  if (hours > 0) return `${unit(hours, 'hour')}${mins > 0 ? ` ${unit(mins, 'minute')}` : ''} left`;
  if (mins > 0) return `${unit(mins, 'minute')} left`;
  return 'under a minute left';
}
