/**
 * Every stream name of the event log, in one place: one stream per aggregate instance (ARCHITECTURE.md), named
 * `<kind>-<id>`. Writers name streams here and readers recognise them here, so a rename cannot miss a file.
 */
export const streams = {
  /** A user's account: registration, profile changes, deletion (domain/account). */
  account: (userId: string) => `user-${userId}`,
  /** A user's index of goal weeks: one goal per week, one upcoming goal (domain/goal/user-goals.ts). */
  userGoals: (userId: string) => `user-goals-${userId}`,
  /** One goal (domain/goal). */
  goal: (goalId: string) => `goal-${goalId}`,
  /** One run, logged, tracked or imported (domain/run); an import's id comes from `importedRunId`. */
  run: (runId: string) => `run-${runId}`,
  /** A user's GPS tracking: at most one open session at a time (domain/run/tracking.ts). */
  tracking: (userId: string) => `tracking-${userId}`,
  /** The fixes a tracking session uploaded while it ran (domain/run/track-upload.ts). */
  trackingSession: (sessionId: string) => `tracking-session-${sessionId}`,
  /** One stake (domain/stake); a goal's stake id comes from `stakeIdForGoal`. */
  stake: (stakeId: string) => `stake-${stakeId}`,
  /** The outcome of one release of a stake's hold, recorded once (app-server/process/stakes/release-confirmed.ts). */
  stakeRelease: (idempotencyKey: string) => `stake-release-${idempotencyKey}`,
  /** One group (domain/group). */
  group: (groupId: string) => `group-${groupId}`,
  /**
   * The reactions to one feed card, as they were written before each reaction had its own stream: no longer
   * appended to, read once to carry a reaction's state over to its own stream (reaction-commands.ts).
   */
  feedReactions: (feedEventId: string) => `feed-reactions-${feedEventId}`,
  /** One user's reaction of one kind to one feed card (domain/reaction): its state is its last event. */
  reaction: (feedEventId: string, userId: string, emoji: string) => `reaction-${feedEventId}-${userId}-${emoji}`,
  /** A user's badge collection (domain/badge). */
  badges: (userId: string) => `badges-${userId}`,
  /** A user's XP ledger (domain/xp). */
  xpLedger: (userId: string) => `xp-${userId}`,
  /** The one surge schedule (domain/surge). */
  surgeSchedule: () => 'surge-schedule',
  /** One payout to a charity for one ledger month, named by its transfer's reference (domain/stake/charity-payout.ts). */
  charityPayout: (charityId: string, month: string, referenceKey: string) =>
    `charity-payout-${charityId}-${month}-${referenceKey}`,
  /** One connection to an external service (Strava). */
  externalAccount: (connectionId: string) => `external-account-${connectionId}`,
} as const;

/** Whether a stream is one stake's own stream (`stake-<id>`), not a release record beside it. */
export function isStakeStream(streamId: string): boolean {
  return streamId.startsWith('stake-') && !streamId.startsWith('stake-release-');
}

/** Whether a stream is one goal's stream. */
export function isGoalStream(streamId: string): boolean {
  return streamId.startsWith('goal-');
}

/** Whether a stream is one payout to a charity. */
export function isCharityPayoutStream(streamId: string): boolean {
  return streamId.startsWith('charity-payout-');
}
