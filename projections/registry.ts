import { logStatsProjector } from './log-stats/log-stats-projector.ts';
import type { Projector } from './runner/projector.ts';

/** Every read model the product maintains. The runner, the rebuild CLI and the tests all start from this list. */
export const allProjectors: readonly Projector[] = [logStatsProjector];
