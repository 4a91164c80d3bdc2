import { Icon, type IconName } from '../../../components/icon.tsx';
import { BADGE_DEFINITIONS } from '../../../../../domain/gamification/badge-definitions.ts';
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

/** Every badge, earned ones in colour (§2 profile Badges tab). */
export function BadgeGrid() {
  const mine = useMyBadges();
  const earned = new Set((mine.data ?? []).map((b) => b.badge_type));
  return (
    <div className="badge-grid">
      {BADGE_DEFINITIONS.map((d) => {
        const has = earned.has(d.badge_type);
        return (
          <div key={d.badge_type} className={has ? 'badge earned' : 'badge locked'} title={d.description}>
            <span className="badge-icon" style={has ? { background: d.color, color: '#fff' } : undefined}>
              <Icon name={ICONS[d.icon] ?? 'star'} size={22} />
            </span>
            <strong>{d.name}</strong>
            <span className="muted small">{d.description}</span>
          </div>
        );
      })}
    </div>
  );
}
