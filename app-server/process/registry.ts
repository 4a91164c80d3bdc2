import { badgeAwardsProcess } from './awards/badge-awards.ts';
import { xpAwardsProcess } from './awards/xp-awards.ts';
import { goalLifecycleProcess } from './goal-lifecycle/goal-lifecycle-process.ts';
import type { ProcessManager } from './process-manager.ts';

/** Every process manager the workers run (settlement, holds, goal activation, reminders, awards…). */
export const allProcessManagers: readonly ProcessManager[] = [goalLifecycleProcess, xpAwardsProcess, badgeAwardsProcess];
