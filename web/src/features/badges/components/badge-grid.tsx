import { BADGE_DEFINITIONS } from '../../../../../domain/gamification/badge-definitions.ts';
import { Icon, type IconName } from '../../../components/icon.tsx';
import { useMyBadges } from '../api/get-my-badges.ts';

// The definitions' icon names (§3) drawn with the app's own line icons.
const ICONS: Record<string, IconName> = {
  Trophy: 'trophy',
  Flame: 'flame',
  Target: 'target',
  Star: 'star',
  Award: 'medal',
  Calendar: 'check',
  Ghost: 'user',
  TrendingUp: 'bolt',
  Sunrise: 'star',
};

type Definition = (typeof BADGE_DEFINITIONS)[number];

function BadgeTile({ badge, earned }: { readonly badge: Definition; readonly earned: boolean }) {
  return (
    <li className={earned ? 'badge earned' : 'badge locked'}>
      <span className="badge-icon" style={earned ? { background: badge.color, color: '#fff' } : undefined}>
        <Icon name={earned ? (ICONS[badge.icon] ?? 'star') : 'lock'} size={earned ? 22 : 18} />
      </span>
      <strong>{badge.name}</strong>
      <span className="small badge-text">{badge.description}</span>
    </li>
  );
}

/**
 * The profile's Badges tab (§2): the earned badges first, in colour, with how many of all; the locked ones folded
 * away under "Still to earn" (what each asks is written on it), so a new runner's profile is not a wall of grey.
 */
export function BadgeGrid() {
  const mine = useMyBadges();
  const earned = new Set((mine.data ?? []).map((b) => b.badge_type));
  const have = BADGE_DEFINITIONS.filter((d) => earned.has(d.badge_type));
  const locked = BADGE_DEFINITIONS.filter((d) => !earned.has(d.badge_type));
  if (mine.isPending) return <div className="skeleton badge-skeleton" aria-busy="true" />;
  return (
    <div className="badges">
      <div className="section-head">
        <h2>Badges</h2>
        <span className="muted small">
          {have.length} of {BADGE_DEFINITIONS.length} earned
        </span>
      </div>
      {have.length > 0 ? (
        <ul className="badge-grid" aria-label="Earned badges">
          {have.map((d) => (
            <BadgeTile key={d.badge_type} badge={d} earned />
          ))}
        </ul>
      ) : (
        <p className="muted">No badges yet. Your first run earns First Steps.</p>
      )}
      {locked.length > 0 ? (
        <details className="locked-badges">
          <summary>
            Still to earn ({locked.length})
            <Icon name="chevronDown" size={18} />
          </summary>
          <ul className="badge-grid" aria-label="Badges still to earn">
            {locked.map((d) => (
              <BadgeTile key={d.badge_type} badge={d} earned={false} />
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
