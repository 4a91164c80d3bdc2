/** GET /goals?limit=100 (§7): the goal history; in web/src/lib, as the runs feature reads it too. */
export { getGoals, goalsQueryOptions, useGoals } from '../../../lib/goals-query.ts';
