import { Hono } from 'hono';
import { z } from 'zod';
import { levelInfo, streakInfo } from '../../../../projections/gamification/level-queries.ts';
import type { AuthTables } from '../../../auth/tables.ts';
import { eraseAccount } from '../../../auth/account/erase-account.ts';
import { updateProfile } from '../../../auth/account/update-profile.ts';
import type { AppDeps } from '../../app.ts';
import type { AppEnv } from '../../app-env.ts';
import { HttpError } from '../../errors.ts';
import { requireUser } from '../../middleware/require-user.ts';
import { commandContext, parseRequest, readJson } from '../../request.ts';

const NEEDS_NONCE =
  'Deleting your account needs a verification code: request one with GET /auth/v1/reauthenticate and send it as nonce';

/** DELETE /auth/me: the reauthentication code (nonce) mailed by GET /auth/v1/reauthenticate. */
export const deleteAccountBodySchema = z.object(
  { nonce: z.string({ error: NEEDS_NONCE }).trim().min(1, NEEDS_NONCE).max(100) },
  { error: NEEDS_NONCE },
);

export const profilePatchSchema = z
  .object({
    timezone: z.string({ message: 'timezone must be a string' }).max(100).optional(),
    display_name: z.string({ message: 'display_name must be a string' }).max(200).optional(),
  })
  .strict();

/** The PATCH body; an unknown field is answered with what can be changed. */
function parseProfileChange(body: unknown) {
  const parsed = profilePatchSchema.safeParse(body);
  if (!parsed.success && parsed.error.issues[0]?.code === 'unrecognized_keys') {
    throw new HttpError(400, 'Only timezone and display_name can be changed');
  }
  return parseRequest(profilePatchSchema, body);
}

/**
 * The product profile: `GET /auth/me`, `PATCH /auth/me` (time zone, display name) and `DELETE /auth/me` (account
 * deletion: erases personal data now, well inside the promised 30 days; see docs/auth.md).
 */
export function profileRoutes(deps: AppDeps) {
  const core = deps.auth;
  const guard = requireUser(core);
  const db = core.database.db.withTables<AuthTables>();
  const profile = async (userId: string) => {
    const row = await db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw new HttpError(404, 'User not found');
    // Level, tier and XP come from the gamification read model, which the XP awards keep current.
    const xp = await levelInfo(core.database.db, userId);
    return {
      id: row.id,
      email: row.email,
      display_name: row.display_name,
      timezone: row.timezone,
      level: xp.level,
      tier: xp.tier,
      total_xp: xp.total_xp,
      avatar_url: row.avatar_url,
      streak: await streakInfo(core.database.db, userId, row.timezone, core.clock.now()),
      created_at: new Date(row.created_at).toISOString(),
    };
  };

  return new Hono<AppEnv>()
    .get('/auth/me', guard, async (c) => c.json({ user: await profile(c.var.userId) }))
    .patch('/auth/me', guard, async (c) => {
      const change = parseProfileChange(await readJson(c));
      const context = commandContext(deps, c);
      const current = await profile(context.userId);
      await updateProfile(
        context,
        { timezone: change.timezone, displayName: change.display_name },
        current.display_name,
      );
      return c.json({ user: await profile(context.userId) });
    })
    .delete('/auth/me', guard, async (c) => {
      const userId = c.var.userId;
      const { nonce } = parseRequest(deleteAccountBodySchema, await readJson(c));
      const used = await core.otps.consumeCode({ userId, code: nonce, kinds: ['reauthentication'] });
      if (!used) throw new HttpError(400, 'Verification code is invalid or expired');
      const current = await profile(userId);
      const context = commandContext(deps, c);
      const { eraseBy } = await eraseAccount(context);
      if (current.email) await core.mailbox?.forget(current.email);
      return c.json({
        status: 'erased',
        requested_at: context.now.toISOString(),
        erase_by: eraseBy,
        erased_at: context.now.toISOString(),
      });
    });
}
