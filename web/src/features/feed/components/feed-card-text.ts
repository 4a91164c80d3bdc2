import { type DistanceUnit, formatDistance } from '../../../../../domain/shared/units.ts';
import { formatDollars } from '../../../../../domain/shared/money.ts';
import { formatDuration } from '../../../lib/format.ts';
import type { FeedEvent } from '../../../lib/api-types.ts';
import type { IconName } from '../../../components/icon.tsx';

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The headline and detail line of a feed card, by event type (§3 feed event_data). */
export function feedCardText(event: FeedEvent, unit: DistanceUnit): { icon: IconName; title: string; detail: string } {
  const d = event.event_data;
  const name = typeof d.user_name === 'string' ? d.user_name : event.display_name;
  switch (event.event_type) {
    case 'run_completed': {
      if (d.synced === true && num(d.distance_km) === null)
        return { icon: 'run', title: `${name} logged a synced run`, detail: '' };
      const km = num(d.distance_km) ?? 0;
      const xp = num(d.xp_earned) ?? 0;
      const parts = [formatDistance(km, unit), formatDuration(num(d.duration_sec) ?? 0)];
      if (xp > 0) parts.push(`+${xp} XP${num(d.surge_bonus) ? ' · Surge Bonus' : ''}`);
      return { icon: 'run', title: `${name} completed a run`, detail: parts.join(' · ') };
    }
    case 'stake_created':
      return {
        icon: 'coin',
        title: `${name} put money on a ${d.goal_type === 'count' ? 'run count' : 'distance'} goal`,
        detail: d.has_charity ? 'A charity benefits if the goal is missed' : 'Stake on the line',
      };
    case 'stake_settled': {
      const donation = num(d.donation_amount);
      if (d.success) return { icon: 'check', title: `${name} hit their goal — stake released`, detail: '' };
      return {
        icon: 'heart',
        title: `${name} missed their goal`,
        detail:
          donation && typeof d.charity_name === 'string'
            ? `${formatDollars(donation)} donated to ${d.charity_name}`
            : '',
      };
    }
    case 'badge_earned':
      return {
        icon: 'medal',
        title: `${name} earned a badge`,
        detail: typeof d.badge_name === 'string' ? d.badge_name : '',
      };
    default: {
      const never: never = event.event_type;
      return { icon: 'star', title: String(never), detail: '' };
    }
  }
}
