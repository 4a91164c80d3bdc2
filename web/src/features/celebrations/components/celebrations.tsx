import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Badge } from '../../../lib/api-types.ts';
import { celebrateBadge } from '../api/celebrate-badge.ts';
import { getUncelebratedBadges } from '../api/get-uncelebrated-badges.ts';
import { celebrated, rememberCelebrated } from '../celebration-memory.ts';
import {
  BADGE_CELEBRATION_DELAY_MS,
  GOAL_CELEBRATION_DELAY_MS,
  goalCelebrationMessage,
  goalNeedsCelebration,
  pickBadgeToCelebrate,
} from '../celebration-pick.ts';
import { CelebrationModal } from './celebration-modal.tsx';

type Pending =
  | { readonly kind: 'goal'; readonly id: string; readonly stakeCents: number }
  | { readonly kind: 'badge'; readonly badge: Badge };

/**
 * The dashboard's celebrations (§4): the goal-complete pop-up after 800 ms when the goal reached 100% (once per goal),
 * then the newest recent uncelebrated badge 500 ms later. One shows at a time; the badge waits for the goal's.
 * `enabled` is off while the onboarding tour is up, so two dialogs never stack.
 */
export function Celebrations({
  goal,
  enabled,
}: {
  readonly goal:
    | { readonly id: string; readonly percentage: number; readonly stake_amount_cents: number }
    | null
    | undefined;
  readonly enabled: boolean;
}) {
  const [queue, setQueue] = useState<readonly Pending[]>([]);
  const client = useQueryClient();
  const goalId = goal && goalNeedsCelebration(goal, celebrated('celebratedGoals')) ? goal.id : null;
  const stakeCents = goal?.stake_amount_cents ?? 0;

  useEffect(() => {
    if (!enabled || !goalId) return;
    const id = setTimeout(
      () => setQueue((q) => [...q, { kind: 'goal', id: goalId, stakeCents }]),
      GOAL_CELEBRATION_DELAY_MS,
    );
    return () => clearTimeout(id);
  }, [enabled, goalId, stakeCents]);

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    const id = setTimeout(async () => {
      // A failed look-up only means no pop-up this time (§8: load failures are only logged).
      const badges = await getUncelebratedBadges().catch(() => []);
      const badge = pickBadgeToCelebrate(badges, Date.now(), celebrated('celebratedBadges'));
      if (live && badge) setQueue((q) => [...q, { kind: 'badge', badge }]);
    }, BADGE_CELEBRATION_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(id);
    };
  }, [enabled]);

  const current = queue[0];
  if (!current) return null;
  const close = () => {
    if (current.kind === 'goal') rememberCelebrated('celebratedGoals', current.id);
    else {
      rememberCelebrated('celebratedBadges', current.badge.id);
      celebrateBadge(current.badge.id)
        .then(() => client.invalidateQueries({ queryKey: ['badges'] }))
        .catch((error: unknown) => console.warn('celebrate badge failed', error));
    }
    setQueue((q) => q.slice(1));
  };
  return current.kind === 'goal' ? (
    <CelebrationModal
      key={`goal-${current.id}`}
      title="Goal Complete!"
      heading="You crushed this week's goal!"
      message={goalCelebrationMessage(current.stakeCents)}
      shareText="I just hit my weekly running goal on StrideStake!"
      icon="trophy"
      onClose={close}
    />
  ) : (
    <CelebrationModal
      key={`badge-${current.badge.id}`}
      title="Badge Earned!"
      heading={current.badge.name}
      message={current.badge.description}
      shareText={`I just earned the ${current.badge.name} badge on StrideStake!`}
      icon="medal"
      color={current.badge.color}
      onClose={close}
    />
  );
}
