import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { EventStore } from '../../domain/shared/event-store.ts';
import type { StravaClient } from '../adapters/strava/strava-client.ts';
import type { SecretBox } from '../auth/secrets.ts';
import { appendEvents } from '../commands/execute-command.ts';
import type { ConnectionEvent, IntegrationProvider } from './connection-events.ts';
import type { ExternalAccountRow, IntegrationTables } from './tables.ts';
import { processMetadata } from '../commands/event-metadata.ts';
import { STRAVA } from './strava-actor.ts';
import { streams } from '../../domain/shared/streams.ts';

export type ExternalAccount = Selectable<ExternalAccountRow>;

/** What account operations need. */
export interface AccountDeps {
  readonly db: Kysely<object>;
  readonly store: EventStore<Transaction<object>>;
  readonly box: SecretBox;
}

/** The backfill window on connect (§9: 30 days). */
export const BACKFILL_DAYS = 30;
/** Refresh this long before Strava's 6 h access token expires, so a call never starts with a dying token. */
const REFRESH_MARGIN_MS = 5 * 60_000;

const tables = (db: Kysely<object>) => db.withTables<IntegrationTables>();

/** The athlete is already linked to another StrideStake account. */
export class AthleteLinkedElsewhere extends Error {
  constructor() {
    super('This Strava athlete is connected to another account');
    this.name = 'AthleteLinkedElsewhere';
  }
}

export async function findAccount(
  db: Kysely<object>,
  userId: string,
  provider: string,
): Promise<ExternalAccount | null> {
  const row = await tables(db)
    .selectFrom('external_accounts')
    .selectAll()
    .where('user_id', '=', userId)
    .where('provider', '=', provider)
    .executeTakeFirst();
  return row ?? null;
}

export async function findAccountById(db: Kysely<object>, id: string): Promise<ExternalAccount | null> {
  return (await tables(db).selectFrom('external_accounts').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findAccountByAthlete(
  db: Kysely<object>,
  provider: string,
  athleteId: string,
): Promise<ExternalAccount | null> {
  const row = await tables(db)
    .selectFrom('external_accounts')
    .selectAll()
    .where('provider', '=', provider)
    .where('external_user_id', '=', athleteId)
    .executeTakeFirst();
  return row ?? null;
}

/** The user's connected accounts for the connected apps screen (no tokens). */
export async function listAccounts(db: Kysely<object>, userId: string) {
  return tables(db)
    .selectFrom('external_accounts')
    .leftJoin('external_backfills', 'external_backfills.connection_id', 'external_accounts.id')
    .select([
      'external_accounts.id',
      'external_accounts.provider',
      'external_accounts.external_user_id',
      'external_accounts.scopes',
      'external_accounts.last_sync_at',
      'external_accounts.created_at',
      'external_backfills.connection_id as backfill_pending',
    ])
    .where('external_accounts.user_id', '=', userId)
    .orderBy('external_accounts.created_at')
    .execute();
}

function disconnectedEvent(
  account: Pick<ExternalAccount, 'id' | 'user_id' | 'provider'>,
  reason: 'user' | 'deauthorized' | 'replaced' | 'erased',
  now: Date,
): ConnectionEvent {
  return {
    type: 'ExternalAccountDisconnected',
    data: {
      connectionId: account.id,
      userId: account.user_id,
      provider: account.provider as IntegrationProvider,
      reason,
      disconnectedAt: now.toISOString(),
    },
  };
}

/**
 * Stores a new connection and records it, in one transaction: a reconnection replaces the user's previous one
 * (recorded as disconnected), and the ExternalAccountConnected event starts the 30-day backfill (run by the sync
 * process, never inside the request). Returns the connection id.
 */
export async function connectAccount(
  deps: AccountDeps,
  input: {
    userId: string;
    provider: IntegrationProvider;
    athleteId: string;
    scopes: readonly string[];
    accessToken: string;
    refreshToken: string;
    expiresAt: Date;
    now: Date;
  },
): Promise<string> {
  const connectionId = randomUUID();
  const metadata = processMetadata(STRAVA, input.now, `connect-${connectionId}`, { actorId: input.userId });
  await deps.db.transaction().execute(async (tx) => {
    const t = tx.withTables<IntegrationTables>();
    const holder = await findAccountByAthlete(tx, input.provider, input.athleteId);
    if (holder && holder.user_id !== input.userId) throw new AthleteLinkedElsewhere();
    const previous = await findAccount(tx, input.userId, input.provider);
    if (previous) {
      await t.deleteFrom('external_accounts').where('id', '=', previous.id).execute();
      const replaced = disconnectedEvent(previous, 'replaced', input.now);
      await appendEvents(deps.store, streams.externalAccount(previous.id), [replaced], metadata, 'any', tx);
    }
    await t
      .insertInto('external_accounts')
      .values({
        id: connectionId,
        user_id: input.userId,
        provider: input.provider,
        external_user_id: input.athleteId,
        scopes: input.scopes.join(','),
        access_token_sealed: deps.box.seal(input.accessToken),
        refresh_token_sealed: deps.box.seal(input.refreshToken),
        token_expires_at: input.expiresAt,
        last_sync_at: null,
        created_at: input.now,
      })
      .execute();
    const connected: ConnectionEvent = {
      type: 'ExternalAccountConnected',
      data: {
        connectionId,
        userId: input.userId,
        provider: input.provider,
        scopes: [...input.scopes],
        backfillFrom: new Date(input.now.getTime() - BACKFILL_DAYS * 86_400_000).toISOString(),
        backfillTo: input.now.toISOString(),
        connectedAt: input.now.toISOString(),
      },
    };
    await appendEvents(deps.store, streams.externalAccount(connectionId), [connected], metadata, 'no_stream', tx);
  });
  return connectionId;
}

/** Removes the account (its tokens go with it) and records why. Imported runs stay. False if already gone. */
export async function dropAccount(
  deps: AccountDeps,
  account: ExternalAccount,
  reason: 'user' | 'deauthorized' | 'erased',
  now: Date,
  actorId: string | null,
): Promise<boolean> {
  return deps.db.transaction().execute(async (tx) => {
    const deleted = await tx
      .withTables<IntegrationTables>()
      .deleteFrom('external_accounts')
      .where('id', '=', account.id)
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return false;
    const metadata = processMetadata(STRAVA, now, `disconnect-${account.id}`, { actorId });
    await appendEvents(
      deps.store,
      streams.externalAccount(account.id),
      [disconnectedEvent(account, reason, now)],
      metadata,
      'any',
      tx,
    );
    return true;
  });
}

/**
 * A usable access token: the stored one while it has more than a few minutes left, else a refreshed one. The
 * refreshed pair is stored only if nobody refreshed in between (compare-and-set on the sealed refresh token); the
 * loser uses the winner's token. Strava may hand out a new refresh token on any refresh: the newest is always kept.
 * `force` refreshes even an unexpired token (to tell a revoked authorization from a passing 401).
 */
export async function accessTokenFor(
  deps: AccountDeps & { readonly client: StravaClient },
  account: ExternalAccount,
  now: Date,
  options: { force?: boolean } = {},
): Promise<string> {
  if (!options.force && account.token_expires_at.getTime() - REFRESH_MARGIN_MS > now.getTime()) {
    return deps.box.open(account.access_token_sealed);
  }
  const grant = await deps.client.refresh(deps.box.open(account.refresh_token_sealed));
  const updated = await tables(deps.db)
    .updateTable('external_accounts')
    .set({
      access_token_sealed: deps.box.seal(grant.accessToken),
      refresh_token_sealed: deps.box.seal(grant.refreshToken),
      token_expires_at: grant.expiresAt,
    })
    .where('id', '=', account.id)
    .where('refresh_token_sealed', '=', account.refresh_token_sealed)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 1) return grant.accessToken;
  const current = await findAccountById(deps.db, account.id);
  return current ? deps.box.open(current.access_token_sealed) : grant.accessToken;
}

/** Records a completed sync (§3 last_sync_at). */
export async function markSynced(db: Kysely<object>, accountId: string, now: Date): Promise<void> {
  await tables(db).updateTable('external_accounts').set({ last_sync_at: now }).where('id', '=', accountId).execute();
}
