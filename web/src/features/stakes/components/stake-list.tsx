import { useState } from 'react';
import { Link } from 'react-router';
import { formatDollars } from '../../../../../domain/shared/money.ts';
import type { Stake } from '../../../lib/api-types.ts';
import { weekOf } from '../../../lib/format.ts';
import { useGoals } from '../../../lib/goals-query.ts';
import { useStakes } from '../api/get-stakes.ts';
import { appealStatusText, canAppeal, refundText } from '../appeal-words.ts';
import { stakeNotice } from '../stake-notice.ts';
import { AskForVouch } from '../vouch/ask-for-vouch.tsx';
import { canAskForVouch } from '../vouch/vouch-link.ts';
import { AppealDialog } from './appeal-dialog.tsx';
import { HoldTimeline } from './hold-timeline.tsx';
import './appeal.css';

/**
 * The user's stakes with their §4 labels (Refunded, Forfeited, Active, Pending; Not charged when every charge failed;
 * Appeal pending, Refunded after appeal, Refund pending after issue 25) and, under a stake with a payment problem,
 * what happened and what comes next; under each, its hold's timeline, its appeal or refund, and "Appeal" while one
 * may be made. The list is refreshed by the realtime stream's `stakes` changes, so a decision shows without a reload.
 */
export function StakeList({ timeZone }: { readonly timeZone: string }) {
  const stakes = useStakes();
  const goals = useGoals();
  const [appealing, setAppealing] = useState<Stake | null>(null);
  const list = stakes.data ?? [];
  // A week's days are its goal's, which keeps the zone it was set in.
  const zoneOf = (s: Stake) => goals.data?.find((g) => g.id === s.goal_id)?.time_zone ?? timeZone;
  if (stakes.isPending) return <p className="muted">Loading…</p>;
  if (list.length === 0) return <p className="muted">No stakes yet. Add one to a goal to put money on the line.</p>;
  return (
    <>
      <ul className="list" aria-label="Stakes">
        {list.map((s) => (
          <StakeRow key={s.id} stake={s} timeZone={timeZone} onAppeal={() => setAppealing(s)} />
        ))}
      </ul>
      {appealing ? (
        <AppealDialog stake={appealing} timeZone={zoneOf(appealing)} onClose={() => setAppealing(null)} />
      ) : null}
    </>
  );
}

function StakeRow({
  stake: s,
  timeZone,
  onAppeal,
}: {
  readonly stake: Stake;
  readonly timeZone: string;
  readonly onAppeal: () => void;
}) {
  const notice = stakeNotice(s, timeZone);
  // The demo's sample stakes have no appeal, refund or hold: each reads as absent.
  const appeal = appealStatusText(s, timeZone);
  const refund = refundText(s);
  const hasReceipt = !!s.hold?.captured_at;
  return (
    <li className="list-row stake-row">
      <span>
        <strong>{formatDollars(s.amount_cents)}</strong>
        <span className="muted small">
          {weekOf(s.week_start)}
          {s.charity?.name ? ` · ${s.charity.name}` : ''}
        </span>
        {s.on_hold ? <span className="muted small">Held on your card until the goal is settled</span> : null}
        {notice ? <span className="stake-notice small">{notice}</span> : null}
        {appeal ? <span className="stake-appeal small">{appeal}</span> : null}
        {refund ? <span className="stake-refund small">{refund}</span> : null}
        <HoldTimeline hold={s.hold} timeZone={timeZone} />
        {canAskForVouch(s) ? <AskForVouch stakeId={s.id} /> : null}
        {canAppeal(s) || hasReceipt ? (
          <span className="stake-actions">
            {canAppeal(s) ? (
              <button type="button" className="button secondary small" onClick={onAppeal}>
                Appeal
              </button>
            ) : null}
            {hasReceipt ? (
              <Link to={`/stakes/${encodeURIComponent(s.id)}/receipt`} className="small">
                Receipt
              </Link>
            ) : null}
          </span>
        ) : null}
      </span>
      <span className={`status status-${s.label.toLowerCase().replaceAll(' ', '-')}`}>{s.label}</span>
    </li>
  );
}
