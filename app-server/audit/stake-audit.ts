import type { StakeEvent } from '../../domain/stake/events.ts';
import { splitCapture, splitRefund } from '../../domain/shared/money.ts';
import {
  addToCharityLedger,
  type CharityLedger,
  type CharityLedgerLine,
  ledgerLines,
  monthOf,
} from '../../domain/stake/charity-ledger.ts';
import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import type { StakeHoldReleaseConfirmed } from '../process/stakes/release-confirmed.ts';
import { isCharityPayoutStream, isStakeStream } from '../../domain/shared/streams.ts';
import type { CharityPaidOut } from '../../domain/stake/charity-payout.ts';

/** Which stakes to audit: opened within [from, to), of one user, or for one charity. */
export type AuditFilter = {
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly userId?: string | undefined;
  readonly charityId?: string | undefined;
};

/** One stake's history as the event log tells it. */
export type AuditedStake = {
  stakeId: string;
  goalId: string;
  userId: string;
  charityId: string | null;
  amountCents: number;
  openedAt: string;
  outcome: string | null;
  capturedCents: number;
  donationCents: number;
  feeCents: number;
  /** Given back after collection (StakeRefunded), and the charity's part of it. */
  refundedCents: number;
  donationRefundCents: number;
  history: string[];
  violations: string[];
};

/** The auditor's report: every stake, the broken rules, the releases still owed, and the money totals. */
export type AuditReport = {
  stakes: AuditedStake[];
  /** What each charity is owed per month (domain/stake/charity-ledger.ts), checked against the captures and refunds. */
  ledger: CharityLedgerLine[];
  violations: { stakeId: string; rule: string }[];
  openReleases: { stakeId: string; paymentIntentId: string; idempotencyKey: string }[];
  totals: {
    stakes: number;
    settled: number;
    capturedCents: number;
    donationCents: number;
    feeCents: number;
    byCharity: Record<string, { stakes: number; donationCents: number }>;
  };
};

type Working = AuditedStake & {
  settlements: number;
  captureDeadline: string | null;
  captureRequested: boolean;
  releases: Map<string, string>;
  /** The stake's money events, for the charity ledger of the stakes inside the filter. */
  moneyEvents: StakeEvent[];
  /** An appeal was accepted: nothing may be collected from then on (issue 25). */
  appealAccepted: boolean;
  /** The idempotency keys of the refunds made: the same refund twice is money given back twice. */
  refundKeys: Set<string>;
};

/**
 * Replays the event log (never the read models) and checks the money rules on every stake: settled at most once;
 * captured = donation + fee; the donation is exactly the charity share when a charity was chosen and 0 otherwise;
 * no money taken for a completed goal; no capture requested at or after the hold's deadline; a released hold was
 * not captured; refunds never exceed the capture and give back the charity's share by splitRefund; the charity
 * ledger equals, per charity and month, 80% of each capture (rounded down) minus the refunds' charity share;
 * nothing collected after an accepted appeal; no refund made twice (issue 25).
 * Releases not yet confirmed by the provider are listed (owed, not yet a violation).
 */
export async function auditStakes(
  events: AsyncIterable<RecordedEvent>,
  filter: AuditFilter = {},
): Promise<AuditReport> {
  const stakes = new Map<string, Working>();
  const completedGoals = new Set<string>();
  const confirmations = new Map<string, StakeHoldReleaseConfirmed['data']>();
  const payouts: CharityPaidOut[] = [];
  for await (const recorded of events) {
    if (isCharityPayoutStream(recorded.streamId) && recorded.type === 'CharityPaidOut') {
      payouts.push(recorded as unknown as CharityPaidOut);
    } else if (recorded.type === 'GoalCompleted') completedGoals.add((recorded.data as { goalId: string }).goalId);
    else if (recorded.type === 'StakeHoldReleaseConfirmed') {
      const d = (recorded as unknown as StakeHoldReleaseConfirmed).data;
      confirmations.set(d.idempotencyKey, d);
    } else if (isStakeStream(recorded.streamId) && recorded.type.startsWith('Stake')) {
      apply(stakes, recorded as unknown as StakeEvent & RecordedEvent);
    }
  }
  const ledger: CharityLedger = new Map();
  const report: AuditReport = {
    stakes: [],
    ledger: [],
    violations: [],
    openReleases: [],
    totals: { stakes: 0, settled: 0, capturedCents: 0, donationCents: 0, feeCents: 0, byCharity: {} },
  };
  for (const s of stakes.values()) {
    if (!matchesFilter(s, filter)) continue;
    if (s.settlements > 1) s.violations.push(`settled ${s.settlements} times`);
    if (s.outcome === 'lost' || s.outcome === 'forfeited') {
      if (completedGoals.has(s.goalId)) s.violations.push('money taken for a completed goal');
    }
    for (const [key, paymentIntentId] of s.releases) {
      const confirmed = confirmations.get(key);
      if (!confirmed) report.openReleases.push({ stakeId: s.stakeId, paymentIntentId, idempotencyKey: key });
      else if (confirmed.result === 'already_captured')
        s.violations.push(`released hold ${paymentIntentId} was captured`);
    }
    for (const event of s.moneyEvents) addToCharityLedger(ledger, event);
    const {
      settlements: _s,
      captureDeadline: _c,
      captureRequested: _r,
      releases: _l,
      moneyEvents: _m,
      appealAccepted: _a,
      refundKeys: _k,
      ...audited
    } = s;
    report.stakes.push(audited);
    for (const rule of s.violations) report.violations.push({ stakeId: s.stakeId, rule });
    const t = report.totals;
    t.stakes += 1;
    if (s.outcome !== null) t.settled += 1;
    t.capturedCents += s.capturedCents;
    t.donationCents += s.donationCents;
    t.feeCents += s.feeCents;
    if (s.charityId !== null && s.donationCents > 0) {
      const c = t.byCharity[s.charityId] ?? { stakes: 0, donationCents: 0 };
      t.byCharity[s.charityId] = { stakes: c.stakes + 1, donationCents: c.donationCents + s.donationCents };
    }
  }
  // What has been paid out beside what is owed: shown, not a rule (a refund after a payout leaves a month owing back).
  for (const payout of payouts) {
    if (!filter.charityId || payout.data.charityId === filter.charityId) addToCharityLedger(ledger, payout);
  }
  report.ledger = ledgerLines(ledger);
  const audited = [...stakes.values()].filter((s) => matchesFilter(s, filter));
  for (const rule of ledgerDiscrepancies(report.ledger, audited)) report.violations.push({ stakeId: 'ledger', rule });
  report.stakes.sort((a, b) =>
    a.openedAt < b.openedAt ? -1 : a.openedAt > b.openedAt ? 1 : a.stakeId < b.stakeId ? -1 : 1,
  );
  return report;
}

/** The events that take money: none may follow an accepted appeal. */
const COLLECTING: ReadonlySet<string> = new Set(['StakeCaptureRequested', 'StakeChargeRequested', 'StakeCollected']);

function apply(stakes: Map<string, Working>, event: StakeEvent & RecordedEvent): void {
  if (event.type === 'StakeOpened') {
    const d = event.data;
    if (stakes.has(d.stakeId)) {
      stakes.get(d.stakeId)?.violations.push('opened twice');
      return;
    }
    stakes.set(d.stakeId, {
      stakeId: d.stakeId,
      goalId: d.goalId,
      userId: d.userId,
      charityId: d.charityId,
      amountCents: d.amountCents,
      openedAt: d.openedAt,
      outcome: null,
      capturedCents: 0,
      donationCents: 0,
      feeCents: 0,
      refundedCents: 0,
      donationRefundCents: 0,
      history: ['StakeOpened'],
      violations: [],
      settlements: 0,
      captureDeadline: null,
      captureRequested: false,
      releases: new Map(),
      moneyEvents: [],
      appealAccepted: false,
      refundKeys: new Set(),
    });
    return;
  }
  const s = stakes.get(event.data.stakeId);
  if (!s) return;
  s.history.push(event.type);
  if (s.appealAccepted && COLLECTING.has(event.type)) s.violations.push(`${event.type} after an accepted appeal`);
  switch (event.type) {
    case 'StakeAppealAccepted':
      s.appealAccepted = true;
      return;
    case 'StakeHoldPlaced':
      s.captureDeadline = event.data.captureBefore;
      return;
    case 'StakeCaptureRequested':
      s.captureRequested = true;
      if (Date.parse(event.data.requestedAt) >= Date.parse(event.data.captureBefore)) {
        s.violations.push('capture requested after the hold deadline');
      }
      return;
    case 'StakeReleased':
      s.settlements += 1;
      s.outcome = event.data.outcome;
      if (event.data.paymentIntentId) s.releases.set(event.data.idempotencyKey, event.data.paymentIntentId);
      return;
    case 'StakeLateHoldReleased':
      s.releases.set(event.data.idempotencyKey, event.data.paymentIntentId);
      return;
    case 'StakeWrittenOff':
      s.settlements += 1;
      s.outcome = 'uncollectible';
      return;
    case 'StakeCollected': {
      const d = event.data;
      s.settlements += 1;
      s.outcome = d.outcome;
      s.moneyEvents.push(event);
      s.capturedCents += d.capturedCents;
      s.donationCents += d.donationCents;
      s.feeCents += d.feeCents;
      if (d.capturedCents !== d.donationCents + d.feeCents) s.violations.push('captured is not donation + fee');
      if (d.charityId !== s.charityId) s.violations.push('collected for another charity than chosen');
      const expected = splitCapture(d.capturedCents, s.charityId !== null);
      if (d.donationCents !== expected.donationCents) {
        s.violations.push(s.charityId ? 'donation is not the charity share (80%)' : 'donation without a charity');
      }
      if (d.method === 'capture' && !s.captureRequested) s.violations.push('captured without a capture request');
      return;
    }
    case 'StakeRefunded': {
      const d = event.data;
      s.moneyEvents.push(event);
      if (s.refundKeys.has(d.idempotencyKey)) s.violations.push(`refund ${d.idempotencyKey} made twice`);
      s.refundKeys.add(d.idempotencyKey);
      if (s.capturedCents === 0 || s.refundedCents + d.refundedCents > s.capturedCents) {
        s.violations.push(`refunded ${s.refundedCents + d.refundedCents}c of ${s.capturedCents}c collected`);
      } else {
        const expected = splitRefund(s.capturedCents, s.refundedCents, d.refundedCents, s.charityId !== null);
        if (d.donationRefundCents !== expected.donationCents || d.feeRefundCents !== expected.feeCents) {
          s.violations.push('refund split is not the charity share of what was refunded');
        }
      }
      if (d.charityId !== s.charityId) s.violations.push('refunded for another charity than chosen');
      if (d.donationRefundCents + d.feeRefundCents !== d.refundedCents)
        s.violations.push('refunded is not donation + fee');
      s.refundedCents += d.refundedCents;
      s.donationRefundCents += d.donationRefundCents;
      return;
    }
    default:
      return;
  }
}

/**
 * The ledger checked against the captures and refunds, recomputed by the rule rather than read from the recorded
 * split: per charity and month (UTC), owed = Σ floor(80% × captured) over captures − Σ charity share of refunds
 * (splitRefund over each stake's refunds in order), in integer cents. Each month and charity that differs (either
 * way, or present on one side only) is one violation.
 */
function ledgerDiscrepancies(lines: readonly CharityLedgerLine[], stakes: readonly Working[]): string[] {
  const expected = new Map<string, number>();
  const add = (at: string, charityId: string, cents: number) => {
    const key = `${monthOf(at)} ${charityId}`;
    expected.set(key, (expected.get(key) ?? 0) + cents);
  };
  for (const s of stakes) {
    if (s.charityId === null) continue;
    let captured = 0;
    let refunded = 0;
    for (const e of s.moneyEvents) {
      if (e.type === 'StakeCollected') {
        captured += e.data.capturedCents;
        add(e.data.collectedAt, s.charityId, splitCapture(e.data.capturedCents, true).donationCents);
      } else if (e.type === 'StakeRefunded' && refunded + e.data.refundedCents <= captured) {
        add(e.data.refundedAt, s.charityId, -splitRefund(captured, refunded, e.data.refundedCents, true).donationCents);
        refunded += e.data.refundedCents;
      }
    }
  }
  const recorded = new Map(lines.map((l) => [`${l.month} ${l.charityId}`, l.owedCents]));
  const keys = [...new Set([...expected.keys(), ...recorded.keys()])].sort();
  return keys.flatMap((key) => {
    const want = expected.get(key) ?? 0;
    const got = recorded.get(key) ?? 0;
    return want === got ? [] : [`charity ledger ${key}: owed ${got}c, expected ${want}c`];
  });
}

/** Whether a stake (by owner, charity and opening time) is inside the audit's filter. */
export function matchesFilter(
  s: { readonly userId: string; readonly charityId: string | null; readonly openedAt: string },
  f: AuditFilter,
): boolean {
  if (f.userId && s.userId !== f.userId) return false;
  if (f.charityId && s.charityId !== f.charityId) return false;
  if (f.from && Date.parse(s.openedAt) < Date.parse(f.from)) return false;
  if (f.to && Date.parse(s.openedAt) >= Date.parse(f.to)) return false;
  return true;
}

/** Every event of the log in order, read in batches (the audit never holds the whole log in memory). */
export async function* readWholeLog(
  store: { readAll(o: { after?: RecordedEvent['position'] | null; maxCount?: number }): Promise<RecordedEvent[]> },
  batchSize = 1000,
): AsyncIterable<RecordedEvent> {
  let after: RecordedEvent['position'] | null = null;
  for (;;) {
    const batch = await store.readAll({ after, maxCount: batchSize });
    if (batch.length === 0) return;
    yield* batch;
    after = batch[batch.length - 1]!.position;
  }
}
