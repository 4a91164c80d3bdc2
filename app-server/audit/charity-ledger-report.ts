import type { RecordedEvent } from '../../domain/shared/event-store.ts';
import { isCharityPayoutStream, isStakeStream } from '../../domain/shared/streams.ts';
import type { CharityPaidOut } from '../../domain/stake/charity-payout.ts';
import {
  addToCharityLedger,
  type CharityLedger,
  type CharityLedgerLine,
  ledgerLines,
} from '../../domain/stake/charity-ledger.ts';
import type { StakeEvent } from '../../domain/stake/events.ts';

/** A ledger line as `npm run ledger:charities` prints it, with the charity's name. */
export type CharityLedgerRow = {
  month: string;
  charity_id: string;
  charity_name: string | null;
  captures: number;
  captured_cents: number;
  donation_cents: number;
  fee_cents: number;
  refunds: number;
  refunded_cents: number;
  refund_charity_cents: number;
  owed_cents: number;
  paid_cents: number;
  due_cents: number;
};

/** The charity ledger of the whole log (read once, in order), or of one month `YYYY-MM` (UTC). */
export async function charityLedgerOfLog(
  events: AsyncIterable<RecordedEvent>,
  month?: string,
): Promise<CharityLedgerLine[]> {
  const ledger: CharityLedger = new Map();
  for await (const recorded of events) {
    if (isCharityPayoutStream(recorded.streamId) && recorded.type === 'CharityPaidOut') {
      addToCharityLedger(ledger, recorded as unknown as CharityPaidOut);
      continue;
    }
    if (!isStakeStream(recorded.streamId)) continue;
    if (recorded.type !== 'StakeCollected' && recorded.type !== 'StakeRefunded') continue;
    addToCharityLedger(ledger, recorded as unknown as StakeEvent);
  }
  return ledgerLines(ledger).filter((l) => month === undefined || l.month === month);
}

/** The lines with their charities' names (null for a charity no longer in the table). */
export function ledgerRows(
  lines: readonly CharityLedgerLine[],
  names: ReadonlyMap<string, string>,
): CharityLedgerRow[] {
  return lines.map((l) => ({
    month: l.month,
    charity_id: l.charityId,
    charity_name: names.get(l.charityId) ?? null,
    captures: l.captures,
    captured_cents: l.capturedCents,
    donation_cents: l.donationCents,
    fee_cents: l.feeCents,
    refunds: l.refunds,
    refunded_cents: l.refundedCents,
    refund_charity_cents: l.refundCharityCents,
    owed_cents: l.owedCents,
    paid_cents: l.paidCents,
    due_cents: l.dueCents,
  }));
}

const COLUMNS: readonly (keyof CharityLedgerRow)[] = [
  'month',
  'charity_id',
  'charity_name',
  'captures',
  'captured_cents',
  'donation_cents',
  'fee_cents',
  'refunds',
  'refunded_cents',
  'refund_charity_cents',
  'owed_cents',
  'paid_cents',
  'due_cents',
];

/** The rows as CSV (RFC 4180 quoting), with a header row even when there are no rows. */
export function ledgerCsv(rows: readonly CharityLedgerRow[]): string {
  const q = (v: unknown) => {
    const s = v === null || v === undefined ? '' : String(v);
    return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  return `${[COLUMNS.join(','), ...rows.map((r) => COLUMNS.map((c) => q(r[c])).join(','))].join('\n')}\n`;
}
