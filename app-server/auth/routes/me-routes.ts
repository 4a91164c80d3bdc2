import { Hono } from 'hono';
import { isLeft } from 'fp-ts/lib/Either.js';
import { z } from 'zod';
import { accountDecider, accountStreamId } from '../../../domain/account/decide.ts';
import { AccountEvent } from '../../../domain/account/events.ts';
import type { AccountState } from '../../../domain/account/state.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { levelInfo, streakInfo } from '../../http/routes/me-level.ts';
import { HttpError, httpErrorFromDomain } from '../../http/errors.ts';
import type { AuthCore } from '../auth-core.ts';
import { requireUser } from '../guard.ts';
import type { AuthTables } from '../tables.ts';
import { toNewEvents } from '../user-store.ts';

export const profilePatchSchema = z
  .object({
    timezone: z.string({ message: 'timezone must be a string' }).max(100).optional(),
    display_name: z.string({ message: 'display_name must be a string' }).max(200).optional(),
  })
  .strict();

async function readJson(c: { req: { text(): Promise<string> } }): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, 'Request body must be valid JSON');
  }
}

async function loadAccount(core: AuthCore, userId: string): Promise<{ state: AccountState; version: number }> {
  const recorded = await core.store.readStream(accountStreamId(userId));
  const events = recorded.map((r) => AccountEvent.parse({ type: r.type, data: r.data }));
  return {
    state: events.reduce(accountDecider.evolve, accountDecider.initialState),
    version: recorded.length === 0 ? -1 : recorded[recorded.length - 1]!.streamRevision,
  };
}

/**
 * The product profile: `GET /auth/me`, `PATCH /auth/me` (time zone, display name) and `DELETE /auth/me` (account
 * deletion: erases personal data now, well inside the promised 30 days; see docs/auth.md).
 */
export function meRoutes(core: AuthCore) {
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
    .use('/me', requireUser(core))
    .get('/me', async (c) => c.json({ user: await profile(c.get('userId')) }))
    .patch('/me', async (c) => {
      const userId = c.get('userId');
      const parsed = profilePatchSchema.safeParse(await readJson(c));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new HttpError(
          400,
          issue?.code === 'unrecognized_keys'
            ? 'Only timezone and display_name can be changed'
            : (issue?.message ?? 'Invalid request'),
        );
      }
      const current = await profile(userId);
      const { state, version } = await loadAccount(core, userId);
      const now = core.clock.now();
      const decided = accountDecider.decide(
        {
          type: 'UpdateProfile',
          timezone: parsed.data.timezone,
          displayName: parsed.data.display_name,
          currentDisplayName: current.display_name,
          now: now.toISOString(),
        },
        state,
      );
      if (isLeft(decided)) throw httpErrorFromDomain(decided.left);
      const event = decided.right[0];
      await core.database.db.transaction().execute(async (outer) => {
        const tx = outer.withTables<AuthTables>();
        await tx
          .updateTable('users')
          .set({
            ...(event?.type === 'ProfileUpdated' && event.data.timezone ? { timezone: event.data.timezone } : {}),
            ...(event?.type === 'ProfileUpdated' && event.data.displayNameChanged
              ? { display_name: parsed.data.display_name!.trim().replace(/\s+/g, ' ') }
              : {}),
            updated_at: now,
          })
          .where('id', '=', userId)
          .execute();
        await core.store.appendToStream(
          accountStreamId(userId),
          toNewEvents(decided.right, userId, now.toISOString(), c.get('requestId')),
          {
            expectedVersion: version,
            transaction: outer,
          },
        );
      });
      return c.json({ user: await profile(userId) });
    })
    .delete('/me', async (c) => {
      const userId = c.get('userId');
      const body = (await readJson(c)) as { nonce?: unknown } | null;
      const nonce = typeof body?.nonce === 'string' ? body.nonce.trim() : '';
      if (!nonce) {
        throw new HttpError(
          400,
          'Deleting your account needs a verification code: request one with GET /auth/v1/reauthenticate and send it as nonce',
        );
      }
      const used = await core.otps.consumeCode({ userId, code: nonce, kinds: ['reauthentication'] });
      if (!used) throw new HttpError(400, 'Verification code is invalid or expired');
      const current = await profile(userId);
      const { state, version } = await loadAccount(core, userId);
      const now = core.clock.now();
      const requested = accountDecider.decide({ type: 'RequestAccountDeletion', now: now.toISOString() }, state);
      if (isLeft(requested)) throw httpErrorFromDomain(requested.left);
      const afterRequest = requested.right.reduce(accountDecider.evolve, state);
      const erased = accountDecider.decide({ type: 'ErasePersonalData', now: now.toISOString() }, afterRequest);
      if (isLeft(erased)) throw httpErrorFromDomain(erased.left);
      const events = [...requested.right, ...erased.right];
      await core.database.db.transaction().execute(async (outer) => {
        const tx = outer.withTables<AuthTables>();
        await tx
          .updateTable('users')
          .set({ email: null, display_name: 'Deleted user', avatar_url: null, deleted_at: now, updated_at: now })
          .where('id', '=', userId)
          .execute();
        await tx
          .updateTable('auth_users')
          .set({
            email: `deleted-${userId}@invalid.invalid`,
            encrypted_password: null,
            new_email: null,
            user_metadata: '{}',
            deleted_at: now,
            updated_at: now,
          })
          .where('id', '=', userId)
          .execute();
        for (const table of ['auth_sessions', 'auth_factors', 'auth_one_time_tokens', 'auth_flow_states'] as const) {
          await tx.deleteFrom(table).where('user_id', '=', userId).execute();
        }
        await core.store.appendToStream(
          accountStreamId(userId),
          toNewEvents(events, userId, now.toISOString(), c.get('requestId')),
          {
            expectedVersion: version,
            transaction: outer,
          },
        );
      });
      if (current.email) await core.mailbox?.forget(current.email);
      const done = events.find((e) => e.type === 'AccountDeletionRequested');
      return c.json({
        status: 'erased',
        requested_at: now.toISOString(),
        erase_by: done?.type === 'AccountDeletionRequested' ? done.data.eraseBy : null,
        erased_at: now.toISOString(),
      });
    });
}
