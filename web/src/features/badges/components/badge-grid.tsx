import { BADGE_DEFINITIONS } from '../../../../../domain/gamification/badge-definitions.ts';
import { useMyBadges } from '../api/get-my-badges.ts';

const ICONS: Record<string, string> = {
  Trophy: '🏆',
  Flame: '🔥',
  Target: '🎯',
  Star: '⭐',
  Award: '🏅',
  Calendar: '📅',
  Ghost: '👻',
  TrendingUp: '📈',
  Sunrise: '🌅',
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
            <span className="badge-icon" style={has ? { background: d.color } : undefined} aria-hidden="true">
              {ICONS[d.icon] ?? '★'}
            </span>
            <strong>{d.name}</strong>
            <span className="muted small">{d.description}</span>
          </div>
        );
      })}
    </div>
  );
}
