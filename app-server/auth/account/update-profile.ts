import { accountDecider } from '../../../domain/account/decide.ts';
import { streams } from '../../../domain/shared/streams.ts';
import type { AuthTables } from '../tables.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../../commands/command-context.ts';
import { executeCommand, executeInTransaction } from '../../commands/execute-command.ts';

/** What PATCH /auth/me may change. */
export interface ProfileChange {
  readonly timezone?: string | undefined;
  readonly displayName?: string | undefined;
}

/**
 * PATCH /auth/me: the account decides (a valid zone, a real change) and records `ProfileUpdated`; the profile row
 * (§3 User) changes in the same transaction. The display name is personal data: it goes to the row, never into the
 * event, which only says that it changed (so erasing the row erases it everywhere).
 */
export async function updateProfile(
  context: UserCommandContext,
  change: ProfileChange,
  currentDisplayName: string,
): Promise<void> {
  await executeInTransaction(context.database, async (tx) => {
    const { events } = await executeCommand(
      context.store,
      accountDecider,
      streams.account(context.userId),
      {
        type: 'UpdateProfile',
        timezone: change.timezone,
        displayName: change.displayName,
        currentDisplayName,
        now: instantOf(context),
      },
      userMetadata(context),
      { transaction: tx },
    );
    const updated = events.find((e) => e.type === 'ProfileUpdated');
    await tx
      .withTables<AuthTables>()
      .updateTable('users')
      .set({
        ...(updated?.type === 'ProfileUpdated' && updated.data.timezone ? { timezone: updated.data.timezone } : {}),
        ...(updated?.type === 'ProfileUpdated' && updated.data.displayNameChanged && change.displayName !== undefined
          ? { display_name: change.displayName.trim().replace(/\s+/g, ' ') }
          : {}),
        updated_at: context.now,
      })
      .where('id', '=', context.userId)
      .execute();
  });
}
