import { randomUUID } from 'node:crypto';
import { isLeft } from 'fp-ts/lib/Either.js';
import type { Transaction, Updateable } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { accountDecider } from '../../domain/account/decide.ts';
import { foldEvents } from '../../domain/shared/decider.ts';
import type { EventStore } from '../../domain/shared/event-store.ts';
import { actorMetadata } from '../commands/event-metadata.ts';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { AuthApiError } from './auth-error.ts';
import type { AuthTables, AuthUserRow, AuthUserTable } from './tables.ts';
import { streams } from '../../domain/shared/streams.ts';
import { appendEvents } from '../commands/execute-command.ts';

/** A login identity as read from auth_users. */
export type AuthUser = {
  id: string;
  email: string;
  passwordHash: string | null;
  emailConfirmedAt: Date | null;
  confirmationSentAt: Date | null;
  recoverySentAt: Date | null;
  newEmail: string | null;
  emailChangeSentAt: Date | null;
  lastSignInAt: Date | null;
  metadata: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
};

const date = (value: Date | string | null): Date | null => (value === null ? null : new Date(value));

function toUser(row: AuthUserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    passwordHash: row.encrypted_password,
    emailConfirmedAt: date(row.email_confirmed_at),
    confirmationSentAt: date(row.confirmation_sent_at),
    recoverySentAt: date(row.recovery_sent_at),
    newEmail: row.new_email,
    emailChangeSentAt: date(row.email_change_sent_at),
    lastSignInAt: date(row.last_sign_in_at),
    metadata: row.user_metadata,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

/** Reads and writes login identities; creates a user together with its profile and first event. */
export interface UserStore {
  byId(id: string): Promise<AuthUser | null>;
  byEmail(email: string): Promise<AuthUser | null>;
  /**
   * Creates the login identity, the product profile (§3 User) and `UserRegistered` in ONE transaction, so the
   * half-way state behind 'Account created but profile setup failed' cannot exist.
   */
  register(input: {
    email: string;
    passwordHash: string | null;
    displayName: string;
    timezone: string | undefined;
    metadata: Record<string, unknown>;
    correlationId: string;
  }): Promise<AuthUser>;
  update(id: string, changes: Updateable<AuthUserTable>): Promise<AuthUser>;
}

export interface UserStoreOptions {
  readonly db: Db;
  readonly clock: Clock;
  readonly store: EventStore<Transaction<object>>;
}

/** The UserStore over auth_users and users. */
export function createUserStore(options: UserStoreOptions): UserStore {
  const db = options.db.withTables<AuthTables>();
  return {
    async byId(id) {
      const row = await db
        .selectFrom('auth_users')
        .selectAll()
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async byEmail(email) {
      const row = await db
        .selectFrom('auth_users')
        .selectAll()
        .where('email', '=', email)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async register(input) {
      const at = options.clock.now();
      const id = randomUUID();
      const decided = accountDecider.decide(
        {
          type: 'RegisterUser',
          userId: id,
          displayName: input.displayName,
          timezone: input.timezone,
          now: Temporal.Instant.fromEpochMilliseconds(at.getTime()),
        },
        foldEvents(accountDecider, []),
      );
      if (isLeft(decided)) throw new AuthApiError(400, 'validation_failed', decided.left.message);
      const registered = decided.right[0];
      if (registered?.type !== 'UserRegistered') throw new Error('RegisterUser must produce UserRegistered');
      const displayName = input.displayName.trim().replace(/\s+/g, ' ');
      const row = await options.db.transaction().execute(async (outer) => {
        const tx = outer.withTables<AuthTables>();
        const inserted = await tx
          .insertInto('auth_users')
          .values({
            id,
            email: input.email,
            encrypted_password: input.passwordHash,
            user_metadata: JSON.stringify({ ...input.metadata, display_name: displayName }),
            created_at: at,
            updated_at: at,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await tx
          .insertInto('users')
          .values({
            id,
            email: input.email,
            display_name: displayName,
            timezone: registered.data.timezone,
            level: 0,
            total_xp: 0,
            avatar_url: null,
            streak: JSON.stringify({ current_streak: 0, longest_streak: 0, last_completed_week: null }),
            created_at: at,
            updated_at: at,
          })
          .execute();
        const metadata = actorMetadata(id, input.correlationId, at);
        await appendEvents(options.store, streams.account(id), decided.right, metadata, 'no_stream', outer);
        return inserted;
      });
      return toUser(row);
    },
    async update(id, changes) {
      const row = await db
        .updateTable('auth_users')
        .set({ ...changes, updated_at: options.clock.now() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    },
  };
}
