/** Shortest group name after trimming (§5, §9). */
export const GROUP_NAME_MIN = 3;

/** Longest group name after trimming (§5, §9). */
export const GROUP_NAME_MAX = 50;

/** Invite codes are exactly this long (§9). */
export const INVITE_CODE_LENGTH = 8;

/**
 * Most members a group has, owner included. The spec states no group size (§9 names none); 50 keeps a group's
 * leaderboard, challenges and feed one screen of people, and bounds every read that lists a group's members.
 */
export const GROUP_MEMBERS_MAX = 50;
