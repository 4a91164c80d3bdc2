import { accountDecider } from '../../../domain/account/decide.ts';
import { streams } from '../../../domain/shared/streams.ts';
import { eraseCredentials } from './erase-credentials.ts';
import type { AuthTables } from '../tables.ts';
import { instantOf, type UserCommandContext, userMetadata } from '../../commands/command-context.ts';
import { executeCommand, executeInTransaction } from '../../commands/execute-command.ts';

/**
 * DELETE /auth/me (after reauthentication): the account records the deletion request and the erasure, and in the
 * same transaction the profile row and the login identity lose every personal field. Erasing at once keeps the
 * promise of deletion within 30 days; stake history stays auditable because events never held personal data (and
 * GPS tracks and notes are crypto-shredded: docs/auth.md). Answers when the data must be gone by (`eraseBy`).
 */
export async function eraseAccount(context: UserCommandContext): Promise<{ eraseBy: string | null }> {
  const stream = streams.account(context.userId);
  const metadata = userMetadata(context);
  const now = context.now;
  return executeInTransaction(context.database, async (tx) => {
    const requested = await executeCommand(
      context.store,
      accountDecider,
      stream,
      { type: 'RequestAccountDeletion', now: instantOf(context) },
      metadata,
      { transaction: tx },
    );
    await executeCommand(
      context.store,
      accountDecider,
      stream,
      { type: 'ErasePersonalData', now: instantOf(context) },
      metadata,
      { transaction: tx },
    );
    await tx
      .withTables<AuthTables>()
      .updateTable('users')
      .set({ email: null, display_name: 'Deleted user', avatar_url: null, deleted_at: now, updated_at: now })
      .where('id', '=', context.userId)
      .execute();
    await eraseCredentials(tx, context.userId, now);
    const request = requested.events.find((e) => e.type === 'AccountDeletionRequested');
    return { eraseBy: request?.type === 'AccountDeletionRequested' ? request.data.eraseBy : null };
  });
}
