/** Shortest group name after trimming (§5, §9). */
export const GROUP_NAME_MIN = 3;

/** Longest group name after trimming (§5, §9). */
export const GROUP_NAME_MAX = 50;

/** Invite codes are exactly this long (§9). */
export const INVITE_CODE_LENGTH = 8;
