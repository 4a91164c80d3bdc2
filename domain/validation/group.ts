import { z } from 'zod';
import { storableString } from './text.ts';

/** Group name (§5): trimmed, 3 to 50 characters. */
export const groupNameSchema = storableString({ error: 'Group name must be at least 3 characters' })
  .trim()
  .min(3, 'Group name must be at least 3 characters')
  .max(50, 'Group name must be at most 50 characters');

/** Invite code (§5): trimmed, uppercased, exactly 8 characters. */
export const inviteCodeSchema = storableString({ error: 'Invite code must be 8 characters' })
  .trim()
  .toUpperCase()
  .length(8, 'Invite code must be 8 characters');

/** POST /groups. */
export const createGroupBodySchema = z.object({ name: groupNameSchema });

/** POST /groups/join. */
export const joinGroupBodySchema = z.object({ invite_code: inviteCodeSchema });
