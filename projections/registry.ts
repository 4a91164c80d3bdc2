import { feedProjector } from './feed/feed-projector.ts';
import { gamificationProjector } from './gamification/gamification-projector.ts';
import { goalPausesProjector } from './goal-pauses/goal-pauses-projector.ts';
import { goalsProjector } from './goals/goals-projector.ts';
import { groupsProjector } from './groups/groups-projector.ts';
import { logStatsProjector } from './log-stats/log-stats-projector.ts';
import type { Projector } from './engine/projector.ts';
import { runsProjector } from './runs/runs-projector.ts';
import { stakesProjector } from './stakes/stakes-projector.ts';
import { surgeProjector } from './surge/surge-projector.ts';

/** Every read model the product maintains. The runner, the rebuild CLI and the tests all start from this list. */
export const allProjectors: readonly Projector[] = [
  logStatsProjector,
  runsProjector,
  goalsProjector,
  gamificationProjector,
  surgeProjector,
  groupsProjector,
  feedProjector,
  stakesProjector,
  goalPausesProjector,
];

/**
 * The names of the read models, for code that names the ones it depends on (a write route declares the ones its
 * answer reads). Kept equal to allProjectors' names by registry.test.ts.
 */
export const readModelNames = [
  'log-stats',
  'runs',
  'goals',
  'gamification',
  'surges',
  'groups',
  'feed',
  'stakes',
  'goal-pauses',
] as const;

export type ReadModelName = (typeof readModelNames)[number];
