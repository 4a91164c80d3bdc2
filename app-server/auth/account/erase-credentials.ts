import type { Transaction } from 'kysely';
import type { AuthTables } from '../tables.ts';

/**
 * Erases what the auth service holds about a person, inside the caller's transaction (account deletion): the login
 * identity keeps only its id, and every session, factor, one-time code, flow state and remembered sign-in address
 * goes. The e-mail address becomes an address that can never be signed up with, so the id stays unique.
 */
export async function eraseCredentials(transaction: Transaction<object>, userId: string, now: Date): Promise<void> {
  const tx = transaction.withTables<AuthTables>();
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
  for (const table of [
    'auth_sessions',
    'auth_factors',
    'auth_one_time_tokens',
    'auth_flow_states',
    'auth_sign_in_sources',
  ] as const) {
    await tx.deleteFrom(table).where('user_id', '=', userId).execute();
  }
}
