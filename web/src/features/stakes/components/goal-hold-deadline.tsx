import { useStakes } from '../api/get-stakes.ts';
import { CaptureDeadline } from './hold-timeline.tsx';

/** On the goal card: the capture deadline of the goal's live hold, as a countdown (nothing when no hold is on). */
export function GoalHoldDeadline({ goalId, timeZone }: { readonly goalId: string; readonly timeZone: string }) {
  const stakes = useStakes();
  const stake = stakes.data?.find((s) => s.goal_id === goalId);
  if (!stake) return null;
  return <CaptureDeadline hold={stake.hold} timeZone={timeZone} />;
}
