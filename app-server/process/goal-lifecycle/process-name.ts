/** The goal lifecycle's name: its actor (`system:goal-lifecycle`) and its subscription. */
export const GOAL_LIFECYCLE = 'goal-lifecycle';
