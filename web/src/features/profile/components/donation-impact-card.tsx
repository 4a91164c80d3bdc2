import { Link } from 'react-router';
import { formatDollars } from '../../../../../domain/shared/money.ts';
import { weekOf } from '../../../lib/format.ts';
import { useDonations } from '../api/get-donations.ts';

/**
 * The donation impact card (§2): what missed stakes gave to charity. Not in demo mode (the caller decides), and
 * hidden until there is something to show.
 */
export function DonationImpactCard() {
  const donations = useDonations(true);
  const list = donations.data ?? [];
  if (list.length === 0) return null;
  const totalCents = list.reduce((sum, s) => sum + (s.donation_amount_cents ?? Math.round(s.amount_cents * 0.8)), 0);
  const charities = [...new Set(list.map((s) => s.charity?.name).filter((n): n is string => !!n))];
  return (
    <section className="card donation-impact" aria-label="Donation impact">
      <h2>Your Donation Impact</h2>
      <p className="big-number">{formatDollars(totalCents, { alwaysCents: true })}</p>
      <p className="muted small">
        donated to {charities.length > 0 ? charities.join(', ') : 'charity'} from {list.length} missed{' '}
        {list.length === 1 ? 'goal' : 'goals'}
      </p>
      {/* A printable receipt per collected stake (issue 25.5). */}
      <ul className="receipt-links small" aria-label="Receipts">
        {list.map((s) => (
          <li key={s.id}>
            <Link to={`/stakes/${s.id}/receipt`}>Receipt · {weekOf(s.week_start)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
