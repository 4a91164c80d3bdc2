import { formatDollars } from '../../../../../domain/shared/money.ts';
import { weekOf } from '../../../lib/format.ts';
import type { StakeReceipt } from '../api/get-receipt.ts';
import { whenInZone } from '../components/hold-timeline.tsx';
import './receipt.css';

const dollars = (cents: number) => formatDollars(cents, { alwaysCents: true });

/**
 * The receipt of a collected stake, laid out for paper as well as the screen (receipt.css hides the app around it
 * when printed): what was taken, when and why, how it was split, the charity, and any refund since.
 */
export function StakeReceiptView({ receipt, timeZone }: { readonly receipt: StakeReceipt; readonly timeZone: string }) {
  const charity = receipt.charity?.name ?? receipt.charity?.id ?? null;
  return (
    <article className="card receipt" aria-label="Receipt">
      <header className="receipt-head">
        <p className="eyebrow">StrideStake receipt</p>
        <p className="receipt-amount">{dollars(receipt.captured_cents)}</p>
        <p className="muted small">
          {weekOf(receipt.week_start)} · {receipt.label}
        </p>
      </header>
      <dl className="receipt-lines">
        <dt>Date</dt>
        <dd>{receipt.captured_at ? whenInZone(receipt.captured_at, timeZone) : '—'}</dd>
        <dt>Charity</dt>
        <dd>{charity ?? 'No charity chosen'}</dd>
        <dt>To the charity (80%)</dt>
        <dd>{dollars(receipt.donation_amount_cents)}</dd>
        <dt>Service fee</dt>
        <dd>{dollars(receipt.fee_cents)}</dd>
        {receipt.refunded_cents > 0 ? (
          <>
            <dt>Refunded</dt>
            <dd>
              {dollars(receipt.refunded_cents)}
              {receipt.refunded_at ? ` on ${whenInZone(receipt.refunded_at, timeZone)}` : ''}
            </dd>
          </>
        ) : null}
        <dt>Reference</dt>
        <dd className="receipt-ref">{receipt.stake_id}</dd>
      </dl>
      {receipt.reason ? <p className="receipt-reason small">{receipt.reason}</p> : null}
    </article>
  );
}
