import { type Kysely, sql } from 'kysely';
import { randomToken, sha256 } from '../auth/secrets.ts';
import type { IntegrationProvider } from './connection-events.ts';
import type { IntegrationTables } from './tables.ts';

/** How long a consent round trip may take (a state older than this is refused). */
export const OAUTH_STATE_TTL_MS = 10 * 60_000;
/** Round trips one session may have open at once (tabs, retries); starting another drops the oldest. */
export const OAUTH_STATES_PER_SESSION = 5;

/** Who is completing a round trip: the signed-in user and the auth session their bearer token belongs to. */
export interface OAuthCaller {
  readonly userId: string;
  readonly sessionId: string;
}

/** Where the provider's return is handed over: the web app's page, or the native shell's deep link. */
export type OAuthReturn = 'web' | 'native';

const tables = (db: Kysely<object>) => db.withTables<IntegrationTables>();

/**
 * Starts a round trip: a random `state` (only its hash is stored) bound to the user AND the auth session that asked,
 * expiring after OAUTH_STATE_TTL_MS. Expired states of everyone are swept here, and the session keeps at most
 * OAUTH_STATES_PER_SESSION open ones, so the table stays small whoever calls start how often.
 *
 * Why a stored, session-bound, single-use state (FACTS, Security): a state that only names the user (as a sealed
 * token did) lets whoever holds it complete the round trip in any browser, so an attacker could send their authorize
 * URL to a victim and have the victim's Strava athlete linked to the attacker's account, and replay it for 10 minutes.
 */
export async function startOAuthState(
  db: Kysely<object>,
  caller: OAuthCaller,
  provider: IntegrationProvider,
  now: Date,
  returnTo: OAuthReturn = 'web',
): Promise<string> {
  const state = randomToken(32);
  const stateHash = sha256(state);
  await tables(db).deleteFrom('oauth_states').where('expires_at', '<=', now).execute();
  await tables(db)
    .insertInto('oauth_states')
    .values({
      state_hash: stateHash,
      provider,
      user_id: caller.userId,
      session_id: caller.sessionId,
      created_at: now,
      expires_at: new Date(now.getTime() + OAUTH_STATE_TTL_MS),
      return_to: returnTo,
    })
    .execute();
  // Keep the one just made and the newest few others of this session (states started in the same millisecond tie on
  // created_at: the new one must not be the one dropped).
  await tables(db)
    .deleteFrom('oauth_states')
    .where('session_id', '=', caller.sessionId)
    .where('state_hash', '!=', stateHash)
    .where(
      'state_hash',
      'not in',
      tables(db)
        .selectFrom('oauth_states')
        .select('state_hash')
        .where('session_id', '=', caller.sessionId)
        .where('state_hash', '!=', stateHash)
        .orderBy('created_at', 'desc')
        .orderBy('state_hash')
        .limit(OAUTH_STATES_PER_SESSION - 1),
    )
    .execute();
  return state;
}

/**
 * Uses up a state: true only when it was started by this very user and session for this provider, has not expired,
 * and was not used before. One conditional DELETE … RETURNING decides, so of two parallel completions with one state
 * exactly one gets the row (the other finds it gone), on PostgreSQL and PGlite alike. A state presented by anyone
 * else is left alone (it is not theirs to spend) and answers false.
 */
export async function consumeOAuthState(
  db: Kysely<object>,
  state: string,
  caller: OAuthCaller,
  provider: IntegrationProvider,
  now: Date,
): Promise<boolean> {
  if (!state || state.length > 200) return false;
  const used = await tables(db)
    .deleteFrom('oauth_states')
    .where('state_hash', '=', sha256(state))
    .where('provider', '=', provider)
    .where('user_id', '=', caller.userId)
    .where('session_id', '=', caller.sessionId)
    .where('expires_at', '>', now)
    .returning(sql<number>`1`.as('used'))
    .executeTakeFirst();
  return used !== undefined;
}

/**
 * Where the callback should hand a state over, without spending it: 'native' only for an unexpired state started
 * from the native shell, else 'web'. The destination comes from our own row (one of two fixed addresses), never from
 * the request, so a forged state can at most be sent to the web app, where completing it fails.
 */
export async function returnOfState(db: Kysely<object>, state: string, now: Date): Promise<OAuthReturn> {
  if (!state || state.length > 200) return 'web';
  const row = await tables(db)
    .selectFrom('oauth_states')
    .select('return_to')
    .where('state_hash', '=', sha256(state))
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.return_to === 'native' ? 'native' : 'web';
}
