import type { CharityPaidOut } from './charity-payout.ts';
import type { StakeEvent } from './events.ts';

/**
 * What one charity is owed for one calendar month (UTC): the charity shares of the stakes collected in that month,
 * less the charity shares given back by refunds made in that month. A refund counts in the month it is made, not the
 * month of the capture it refunds: a month already reported is never rewritten.
 */
export interface CharityLedgerLine {
  /** `YYYY-MM`, in UTC. */
  readonly month: string;
  readonly charityId: string;
  readonly captures: number;
  /** Everything collected for this charity's stakes: `donationCents + feeCents`. */
  readonly capturedCents: number;
  /** The charity's 80% of each capture, each rounded down to the cent (domain/shared/money.ts splitCapture). */
  readonly donationCents: number;
  /** Our 20%: the rest of each capture. */
  readonly feeCents: number;
  readonly refunds: number;
  readonly refundedCents: number;
  /** The charity's share of those refunds (splitRefund). */
  readonly refundCharityCents: number;
  /** `donationCents − refundCharityCents`: what the charity is owed for the month (negative when refunds outweigh). */
  readonly owedCents: number;
  /** Payouts recorded for the month (charity-payout.ts) and what they paid. */
  readonly payouts: number;
  readonly paidCents: number;
  /** `owedCents − paidCents`: still to pay (negative: a refund after the payout, to take from the next one). */
  readonly dueCents: number;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** A ledger being folded: one line per (month, charity), keyed `YYYY-MM charityId`. */
export type CharityLedger = Map<string, CharityLedgerLine>;

/** A ledger month as operators type it, `YYYY-MM`. */
export const LEDGER_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The UTC month (`YYYY-MM`) of an ISO instant. */
export function monthOf(instant: string): string {
  return new Date(instant).toISOString().slice(0, 7);
}

const emptyLine = (month: string, charityId: string): Mutable<CharityLedgerLine> => ({
  month,
  charityId,
  captures: 0,
  capturedCents: 0,
  donationCents: 0,
  feeCents: 0,
  refunds: 0,
  refundedCents: 0,
  refundCharityCents: 0,
  owedCents: 0,
  payouts: 0,
  paidCents: 0,
  dueCents: 0,
});

/**
 * Adds one more stake event to the ledger (in place: the whole log is folded through one map): collections and
 * refunds with a charity add to their month's line; every other event, and money without a charity (all fee), does
 * nothing.
 */
export function addToCharityLedger(ledger: CharityLedger, event: StakeEvent | CharityPaidOut): void {
  if (event.type === 'CharityPaidOut') {
    addPayout(ledger, event);
    return;
  }
  if (event.type !== 'StakeCollected' && event.type !== 'StakeRefunded') return;
  const charityId = event.data.charityId;
  if (charityId === null) return;
  const at = event.type === 'StakeCollected' ? event.data.collectedAt : event.data.refundedAt;
  const month = monthOf(at);
  const key = `${month} ${charityId}`;
  const line: Mutable<CharityLedgerLine> = { ...(ledger.get(key) ?? emptyLine(month, charityId)) };
  if (event.type === 'StakeCollected') {
    line.captures += 1;
    line.capturedCents += event.data.capturedCents;
    line.donationCents += event.data.donationCents;
    line.feeCents += event.data.feeCents;
  } else {
    line.refunds += 1;
    line.refundedCents += event.data.refundedCents;
    line.refundCharityCents += event.data.donationRefundCents;
  }
  line.owedCents = line.donationCents - line.refundCharityCents;
  line.dueCents = line.owedCents - line.paidCents;
  ledger.set(key, line);
}

/** A payout pays its month's line. */
function addPayout(ledger: CharityLedger, event: CharityPaidOut): void {
  const { month, charityId, amountCents } = event.data;
  const key = `${month} ${charityId}`;
  const line: Mutable<CharityLedgerLine> = { ...(ledger.get(key) ?? emptyLine(month, charityId)) };
  line.payouts += 1;
  line.paidCents += amountCents;
  line.dueCents = line.owedCents - line.paidCents;
  ledger.set(key, line);
}

/** Folds stake events and payouts (in log order) into ledger lines, by month then charity. */
export function charityLedger(events: Iterable<StakeEvent | CharityPaidOut>): CharityLedgerLine[] {
  const ledger: CharityLedger = new Map();
  for (const event of events) addToCharityLedger(ledger, event);
  return ledgerLines(ledger);
}

/** The lines of a ledger, by month then charity. */
export function ledgerLines(ledger: CharityLedger): CharityLedgerLine[] {
  return [...ledger.values()].sort((a, b) =>
    a.month !== b.month
      ? a.month < b.month
        ? -1
        : 1
      : a.charityId < b.charityId
        ? -1
        : a.charityId > b.charityId
          ? 1
          : 0,
  );
}
